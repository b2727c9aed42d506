import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { CheckpointedConsumer, topicNames } from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import type { OutboxHandoff, Sql } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { RATING_CONSUMER } from './partition-batch.js';
import { ratingBatchHandler } from './rating-batch-handler.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS, OUTBOX_HANDOFF } from './tokens.js';
import { OutboxRelay } from './outbox-relay.js';

/**
 * Reads ladder events in batches and folds each fetch's partition batches in one PostgreSQL
 * transaction with their checkpoints (a large fetch in a few), then wakes the relay to publish
 * what it decided.
 */
@Injectable()
export class RatingConsumer
  extends CheckpointedConsumer<Sql>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(LADDERS) ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) relay: OutboxRelay,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
    @Inject(OUTBOX_HANDOFF) handoff: OutboxHandoff,
  ) {
    const topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    super(kafka, {
      topic: topics.ladderEvents,
      groupId: `${env.KAFKA_TOPIC_PREFIX}${RATING_CONSUMER}`,
      logger: new Logger(RatingConsumer.name),
      handler: ratingBatchHandler(db, ladders, topics.ladderEvents, topics, handoff),
      // A backlog's fetch is split into a few transactions at once, so one's fold overlaps
      // another's writes; a steady load's fetch is one transaction for every partition.
      transactionsInFlight: env.RATING_TRANSACTIONS_IN_FLIGHT,
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
      afterBatch: () => relay.wake(),
      observer: metrics.consumerObserver(topics.ladderEvents),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  /** Before the connections close: the batch under way commits, nothing new is fetched. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
