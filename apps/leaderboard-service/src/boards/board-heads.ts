import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  type BoardHead,
  BoardStore,
  connectionNameOf,
  duplicateClient,
  type RedisClient,
} from '@ranking/redis';
import { REDIS } from '../tokens.js';

/**
 * Which version each daily board is at, kept in memory so a cached page needs no Redis round
 * trip. Heads are kept only while the switches channel is subscribed (every switch and every
 * dropped board is announced there by the store's scripts; a lost subscription may have missed
 * some) and while the board keeper finds the boards ready (Redis may have lost its data).
 * Reads still fail as unavailable when the Redis connection is down, as uncached ones do.
 */
@Injectable()
export class BoardHeads implements OnApplicationShutdown {
  private readonly heads = new Map<string, BoardHead>();
  /** Bumped by every announcement of a ladder: a read begun before it must not be kept. */
  private readonly generations = new Map<string, number>();
  private epoch = 0;
  private listening = false;
  private boardsReady = false;
  private readonly subscriber: RedisClient;

  constructor(
    @Inject(REDIS) redis: RedisClient,
    private readonly store: BoardStore,
  ) {
    // In a cluster PUBLISH reaches every node, so one subscription on any node hears them all.
    this.subscriber = duplicateClient(redis, {
      connectionName: `${connectionNameOf(redis) ?? 'ranking'}-switches`,
      autoResubscribe: false,
      maxRetriesPerRequest: null,
    });
    this.subscriber.on('message', (_channel: string, ladder: string) => this.forget(ladder));
    this.subscriber.on('ready', () => void this.listen());
    this.subscriber.on('close', () => this.forgetAll());
    // Connection errors are the main client's to report; this one just reconnects.
    this.subscriber.on('error', () => undefined);
  }

  /** Whether heads are kept: the switches channel is subscribed and the boards are ready. */
  get following(): boolean {
    return this.listening && this.boardsReady;
  }

  /** The board keeper's finding: false (data lost, rebuilding) forgets every head. */
  boardsFound(ready: boolean): void {
    if (ready === this.boardsReady) return;
    this.boardsReady = ready;
    this.epoch += 1;
    this.heads.clear();
  }

  /** The board a read of `wanted` (null: the newest daily board) resolves to, or null. */
  async head(ladder: string, wanted: string | null): Promise<BoardHead | null> {
    this.store.assertConnected();
    const key = `${ladder}\n${wanted ?? ''}`;
    const known = this.following ? this.heads.get(key) : undefined;
    if (known) return known;
    const epoch = this.epoch;
    const generation = this.generations.get(ladder) ?? 0;
    const head = await this.store.head(ladder, wanted);
    const unchanged = epoch === this.epoch && generation === (this.generations.get(ladder) ?? 0);
    if (head && this.following && unchanged) this.heads.set(key, head);
    return head;
  }

  onApplicationShutdown(): void {
    this.subscriber.disconnect();
  }

  private async listen(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.store.switchesChannel);
      this.forgetAll();
      this.listening = true;
    } catch {
      // The connection went away again; the next 'ready' subscribes.
    }
  }

  private forget(ladder: string): void {
    this.generations.set(ladder, (this.generations.get(ladder) ?? 0) + 1);
    for (const key of this.heads.keys()) if (key.startsWith(`${ladder}\n`)) this.heads.delete(key);
  }

  private forgetAll(): void {
    this.listening = false;
    this.epoch += 1;
    this.heads.clear();
  }
}
