import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { CheckpointedConsumer, topicNames } from '@ranking/kafka';
import type { Sql } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { MAINTENANCE_CONSUMER } from './maintenance-batch.js';
import { maintenanceBatchHandler } from './maintenance-batch-handler.js';
import { OutboxRelay } from './outbox-relay.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

/**
 * Reads the ladder events in its own consumer group: starts each ladder's clock at its first
 * accepted event and counts disconnects, each fetch's partition batches in one PostgreSQL
 * transaction with their checkpoints (the shared consumer protocol).
 */
@Injectable()
export class DisconnectConsumer
  extends CheckpointedConsumer<Sql>
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(LADDERS) ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) relay: OutboxRelay,
  ) {
    const topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    super(kafka, {
      topic: topics.ladderEvents,
      groupId: `${env.KAFKA_TOPIC_PREFIX}${MAINTENANCE_CONSUMER}`,
      logger: new Logger(DisconnectConsumer.name),
      handler: maintenanceBatchHandler(db, ladders, topics),
      // Penalties and dead letters wait in the outbox: publish them now, not at the next tick.
      afterBatch: () => relay.wake(),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
