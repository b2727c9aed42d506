import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { topicNames } from '@ranking/kafka';
import { isTransient, OffsetStore, type RawMessage, sqlOf } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { handlePartitionBatch, RATING_CONSUMER } from './partition-batch.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';
import { OutboxRelay } from './outbox-relay.js';

const MAX_BACKOFF_MS = 10_000;
const PARTITIONS_IN_FLIGHT = 3;

/**
 * Reads ladder events in batches and folds each partition's batch in one PostgreSQL
 * transaction with its checkpoint. On assignment it seeks to the checkpoints in PostgreSQL;
 * Kafka's own commits only follow them. Transient faults are retried with backoff, in order.
 */
@Injectable()
export class RatingConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RatingConsumer.name);
  private consumer: Consumer | null = null;
  private stopping = false;
  private readonly topics;
  private readonly group;

  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
  ) {
    this.topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    this.group = `${env.KAFKA_TOPIC_PREFIX}${RATING_CONSUMER}`;
  }

  async onApplicationBootstrap(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.group,
      maxBytesPerPartition: 4 << 20,
      retry: { retries: 10 },
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic: this.topics.ladderEvents, fromBeginning: true });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      void this.seekToCheckpoints(payload.memberAssignment[this.topics.ladderEvents] ?? []);
    });
    await consumer.run({
      eachBatchAutoResolve: false,
      // Partitions hold disjoint ladders, so their transactions don't contend; running a few at
      // once lets one batch's fold overlap another's database writes.
      partitionsConsumedConcurrently: PARTITIONS_IN_FLIGHT,
      autoCommit: true,
      eachBatch: (payload) => this.onBatch(payload),
    });
    this.logger.log(`consuming ${this.topics.ladderEvents} as group ${this.group}`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect();
  }

  private async seekToCheckpoints(partitions: number[]): Promise<void> {
    try {
      const stored = await new OffsetStore(sqlOf(this.db.manager)).all(
        RATING_CONSUMER,
        this.topics.ladderEvents,
      );
      for (const partition of partitions) {
        const offset = stored.get(partition);
        if (offset !== undefined)
          this.consumer?.seek({
            topic: this.topics.ladderEvents,
            partition,
            offset: offset.toString(),
          });
      }
    } catch (error) {
      // The checkpoint guard in each transaction keeps redelivered messages harmless anyway.
      this.logger.warn(`could not seek to stored checkpoints: ${(error as Error).message}`);
    }
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (batch.messages.length === 0) return;
    const messages: RawMessage[] = batch.messages.map((m) => ({
      topic: batch.topic,
      partition: batch.partition,
      offset: m.offset,
      key: m.key,
      value: m.value,
    }));
    for (let attempt = 1; ; attempt++) {
      if (!payload.isRunning() || payload.isStale() || this.stopping) return;
      try {
        await this.db.transaction((manager) =>
          handlePartitionBatch(
            sqlOf(manager),
            this.ladders,
            batch.topic,
            batch.partition,
            messages,
            {
              topics: this.topics,
            },
          ),
        );
        break;
      } catch (error) {
        const wait = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(attempt, 7));
        const kind = isTransient(error) ? 'transient' : 'unexpected';
        this.logger.error(
          `batch ${batch.topic}/${batch.partition}@${batch.firstOffset()} failed (${kind}, attempt ${attempt}), retrying in ${wait} ms: ${(error as Error).message}`,
        );
        await new Promise((resolve) => setTimeout(resolve, wait));
        await payload.heartbeat().catch(() => undefined);
      }
    }
    payload.resolveOffset(batch.lastOffset());
    await payload.commitOffsetsIfNecessary().catch(() => undefined);
    await payload.heartbeat().catch(() => undefined);
    this.relay.wake();
  }
}
