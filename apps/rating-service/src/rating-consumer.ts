import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { CheckpointedConsumer, topicNames, warnLogRecreated } from '@ranking/kafka';
import { isTransient, OffsetStore, preparedSqlOf, sqlOf } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { handlePartitionBatch, RATING_CONSUMER } from './partition-batch.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';
import { OutboxRelay } from './outbox-relay.js';

/**
 * Reads ladder events in batches and folds each partition's batch in one PostgreSQL
 * transaction with its checkpoint, then wakes the relay to publish what it decided.
 */
@Injectable()
export class RatingConsumer
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
    const topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    const logger = new Logger(RatingConsumer.name);
    super(kafka, {
      topic: topics.ladderEvents,
      groupId: `${env.KAFKA_TOPIC_PREFIX}${RATING_CONSUMER}`,
      logger,
      checkpoints: () =>
        new OffsetStore(sqlOf(db.manager)).all(RATING_CONSUMER, topics.ladderEvents),
      handleBatch: async (partition, messages, logEnd) => {
        const result = await db.transaction((manager) =>
          handlePartitionBatch(
            preparedSqlOf(manager),
            ladders,
            topics.ladderEvents,
            partition,
            messages,
            {
              topics,
              logEnd,
            },
          ),
        );
        if (result.logRecreated) warnLogRecreated(logger, topics.ladderEvents, partition, logEnd);
      },
      isTransient,
      // Running a few partitions at once lets one batch's fold overlap another's writes.
      partitionsInFlight: env.RATING_PARTITIONS_IN_FLIGHT,
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
