import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { MaintenanceOutbox, sqlOf } from '@ranking/persistence';
import type { Kafka, Producer } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, KAFKA } from './tokens.js';

const BATCH = 500;
const IDLE_MS = 200;

/**
 * Publishes the decided closes and penalties, oldest first, deleting rows only after the
 * broker acknowledged them: at least once, never before the decision committed.
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

  /** Something was just decided: publish now rather than at the next tick. */
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
      if (sent < BATCH && this.running) {
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
      const outbox = new MaintenanceOutbox(sqlOf(manager));
      const rows = await outbox.claim(BATCH);
      if (rows.length === 0) return 0;
      const topics = [...new Set(rows.map((r) => r.topic))];
      await producer.sendBatch({
        acks: -1,
        topicMessages: topics.map((topic) => ({
          topic,
          messages: rows
            .filter((r) => r.topic === topic)
            .map((r) => ({ key: r.key, value: r.value })),
        })),
      });
      await outbox.delete(rows.map((r) => r.id));
      return rows.length;
    });
  }
}
