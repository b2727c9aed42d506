import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { CheckpointedConsumer, topicNames, warnLogRecreated } from '@ranking/kafka';
import { isTransient, OffsetStore, sqlOf } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { handleMaintenanceBatch, MAINTENANCE_CONSUMER } from './maintenance-batch.js';
import { OutboxRelay } from './outbox-relay.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

/**
 * Reads the ladder events in its own consumer group: starts each ladder's clock at its first
 * accepted event and counts disconnects, each fetch's partition batches in one PostgreSQL
 * transaction with their checkpoints.
 */
@Injectable()
export class DisconnectConsumer
  extends CheckpointedConsumer
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(LADDERS) ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) relay: OutboxRelay,
  ) {
    const topic = topicNames(env.KAFKA_TOPIC_PREFIX).ladderEvents;
    const logger = new Logger(DisconnectConsumer.name);
    super(kafka, {
      topic,
      groupId: `${env.KAFKA_TOPIC_PREFIX}${MAINTENANCE_CONSUMER}`,
      logger,
      checkpoints: () => new OffsetStore(sqlOf(db.manager)).all(MAINTENANCE_CONSUMER, topic),
      handleBatches: async (batches) => {
        const results = await db.transaction(async (manager) => {
          const done = [];
          for (const { partition, messages, logEnd } of batches)
            done.push({
              partition,
              logEnd,
              ...(await handleMaintenanceBatch(
                sqlOf(manager),
                ladders,
                topic,
                partition,
                messages,
                logEnd,
              )),
            });
          return done;
        });
        for (const result of results)
          if (result.logRecreated) warnLogRecreated(logger, topic, result.partition, result.logEnd);
        if (results.some((r) => r.penalties > 0)) relay.wake();
      },
      isTransient,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
