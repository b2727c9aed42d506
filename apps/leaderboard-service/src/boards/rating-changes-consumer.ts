import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { topicNames } from '@ranking/kafka';
import type { LadderConfig } from '@ranking/rating';
import { BoardStore } from '@ranking/redis';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { Metrics } from '../ops/metrics.js';
import { ENVIRONMENT, KAFKA, LADDERS } from '../tokens.js';
import { BoardBuilder } from './board-builder.js';
import { boardDateOfClose, DAILY_BOARDS_KEPT, dayNumber } from './board-dates.js';
import { hasBoard } from './board-row.js';
import { boardWork, type BoardWork } from './rating-change-message.js';

const BACKOFF_MAX_MS = 5_000;

/**
 * Keeps the boards in step with `ranking.rating-changes`. Each batch's work is applied from the
 * current PostgreSQL rows, so applying a message twice changes nothing; a failed batch (Redis or
 * PostgreSQL away) is retried with backoff and its offsets are committed only once it is applied.
 */
@Injectable()
export class RatingChangesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RatingChangesConsumer.name);
  private consumer: Consumer | null = null;
  private running = false;
  /** Last time the consumer talked to the broker (health). */
  lastContact = 0;

  constructor(
    @Inject(ENVIRONMENT) private readonly env: Environment,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly builder: BoardBuilder,
    private readonly store: BoardStore,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: `${this.env.KAFKA_TOPIC_PREFIX}leaderboard-service`,
      allowAutoTopicCreation: false,
    });
    this.consumer = consumer;
    for (const event of [consumer.events.HEARTBEAT, consumer.events.FETCH_START]) {
      consumer.on(event, () => (this.lastContact = Date.now()));
    }
    consumer.on(consumer.events.CRASH, (e) => {
      this.lastContact = 0;
      this.logger.error(`consumer crashed: ${e.payload.error.message}`);
    });
    await consumer.connect();
    // From the beginning on a new group: the first run catches up with closes it never saw.
    await consumer.subscribe({
      topic: topicNames(this.env.KAFKA_TOPIC_PREFIX).ratingChanges,
      fromBeginning: true,
    });
    this.running = true;
    await consumer.run({ eachBatchAutoResolve: false, eachBatch: (p) => this.onBatch(p) });
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.consumer?.disconnect();
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    // kafkajs's payload functions do not use `this`.
    const resolveOffset = (offset: string) => payload.resolveOffset(offset);
    const heartbeat = () => payload.heartbeat();
    const isRunning = () => payload.isRunning();
    const isStale = () => payload.isStale();
    const work: BoardWork[] = [];
    for (const message of batch.messages) {
      const parsed = boardWork(message.value?.toString('utf8') ?? '');
      if (typeof parsed === 'string')
        this.logger.warn(`skipped message ${batch.partition}/${message.offset}: ${parsed}`);
      else work.push(...parsed);
    }
    for (let attempt = 0; ; attempt++) {
      if (!this.running || !isRunning() || isStale()) return;
      try {
        await this.builder.serial(() => this.apply(work));
        break;
      } catch (error) {
        const wait = Math.min(BACKOFF_MAX_MS, 200 * 2 ** attempt);
        this.logger.warn(`batch not applied, retrying in ${wait} ms: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        await heartbeat().catch(() => undefined);
      }
    }
    const last = batch.messages[batch.messages.length - 1];
    if (last) resolveOffset(last.offset);
    this.metrics.consumerLag.set({ partition: String(batch.partition) }, Number(batch.offsetLag()));
    await heartbeat();
  }

  /** The batch's work, coalesced per ladder: players once each, the live board once. */
  private async apply(work: readonly BoardWork[]): Promise<void> {
    // A rebuild from PostgreSQL is due (Redis lost its data): it will cover this batch.
    if (!(await this.store.isReady())) return;
    const players = new Map<string, Set<string>>();
    const live = new Set<string>();
    const daily: { ladder: string; key: string }[] = [];
    for (const w of work) {
      switch (w.kind) {
        case 'players': {
          const set = players.get(w.ladder) ?? new Set<string>();
          for (const p of w.players) set.add(p);
          players.set(w.ladder, set);
          break;
        }
        case 'live':
          live.add(w.ladder);
          break;
        case 'daily':
          daily.push({ ladder: w.ladder, key: w.key });
          break;
        default: {
          const never: never = w;
          throw new Error(`unknown board work ${JSON.stringify(never)}`);
        }
      }
    }
    for (const [id, set] of players) {
      const ladder = this.ladders.get(id);
      if (!ladder || !hasBoard(ladder) || live.has(id)) continue;
      // No live board yet (a rebuild will load it): nothing to update.
      await this.builder.updateLive(ladder, [...set]);
    }
    for (const id of live) {
      const ladder = this.ladders.get(id);
      if (ladder && hasBoard(ladder)) await this.builder.buildLive(ladder);
    }
    for (const { ladder: id, key } of daily) {
      const ladder = this.ladders.get(id);
      if (!ladder || !hasBoard(ladder)) continue;
      if (await this.alreadyBuilt(ladder.id, key)) continue;
      await this.builder.buildDaily(ladder, key);
    }
  }

  /** A daily board is frozen: built once, or older than the kept window, it needs no work. */
  private async alreadyBuilt(ladder: string, key: string): Promise<boolean> {
    const date = boardDateOfClose(key);
    if ((await this.store.meta(ladder, date))?.asOf === key) return true;
    const newest = (await this.store.days(ladder))[0];
    return newest !== undefined && dayNumber(date) <= dayNumber(newest) - DAILY_BOARDS_KEPT;
  }
}
