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
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { MAINTENANCE_CONSUMER } from './maintenance-batch.js';
import { maintenanceBatchHandler, type MaintenanceTx } from './maintenance-batch-handler.js';
import { OutboxRelay } from './outbox-relay.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

/**
 * Reads the ladder events in its own consumer group: starts each ladder's clock at its first
 * accepted event and counts disconnects, each fetch's partition batches in one PostgreSQL
 * transaction with their checkpoints (the shared consumer protocol).
 */
@Injectable()
export class DisconnectConsumer
  extends CheckpointedConsumer<MaintenanceTx>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(LADDERS) ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) relay: OutboxRelay,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
  ) {
    const topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    super(kafka, {
      topic: topics.ladderEvents,
      groupId: `${env.KAFKA_TOPIC_PREFIX}${MAINTENANCE_CONSUMER}`,
      logger: new Logger(DisconnectConsumer.name),
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
      handler: maintenanceBatchHandler(db, ladders, topics, (byLadder) => {
        for (const [ladder, n] of byLadder) metrics.penalties.inc({ ladder }, n);
      }),
      // Penalties and dead letters wait in the outbox: publish them now, not at the next tick.
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
