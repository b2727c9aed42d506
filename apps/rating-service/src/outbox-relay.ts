import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { MessageLog, sqlOf } from '@ranking/persistence';
import type { Kafka, Message, Producer } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, KAFKA } from './tokens.js';

/** Outbox rows claimed per round (each holds one transaction's messages). */
const ROWS = 20;
/** Messages per produce request: keeps each partition's record batch well under the broker's limit. */
const SEND_CHUNK = 1000;
const IDLE_MS = 200;

/**
 * Publishes what the transactions left in the outbox (rating changes, dead letters), oldest
 * first, deleting rows only after the broker acknowledged them: at least once.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private producer: Producer | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(DATA_SOURCE) private readonly db: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.producer = this.kafka.producer({ allowAutoTopicCreation: false, idempotent: false });
    await this.producer.connect();
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await this.producer?.disconnect();
  }

  /** Something was just committed: publish now rather than at the next tick. */
  wake(): void {
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let sent = 0;
      try {
        sent = await this.relayOnce();
      } catch (error) {
        this.logger.warn(`outbox relay failed, will retry: ${(error as Error).message}`);
      }
      if (sent === 0 && this.running) {
        await new Promise<void>((resolve) => {
          this.wakeUp = resolve;
          setTimeout(resolve, IDLE_MS);
        });
      }
    }
  }

  /** One round: claim, publish, delete, in one transaction (a failed send leaves the rows). */
  async relayOnce(): Promise<number> {
    const producer = this.producer;
    if (!producer) return 0;
    return this.db.transaction(async (manager) => {
      const log = new MessageLog(sqlOf(manager));
      const { rows, messages } = await log.claimOutbox(ROWS);
      if (rows.length === 0) return 0;
      for (let from = 0; from < messages.length; from += SEND_CHUNK) {
        const byTopic = new Map<string, Message[]>();
        for (const m of messages.slice(from, from + SEND_CHUNK)) {
          const list = byTopic.get(m.topic) ?? [];
          list.push({ key: m.key, value: m.value, headers: m.headers });
          byTopic.set(m.topic, list);
        }
        await producer.sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
        });
      }
      await log.deleteOutbox(rows);
      return rows.length;
    });
  }
}
