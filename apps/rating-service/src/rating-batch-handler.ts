import { type BatchHandler, kafkaFirst } from '@ranking/kafka';
import {
  classifyFailure,
  OffsetStore,
  type OutboxHandoff,
  preparedSqlOf,
  type Sql,
} from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { BatchProcessor } from './batch-processor.js';
import { RATING_CONSUMER, type RatingTopics } from './partition-batch.js';

/**
 * The rating service's part of the consumer protocol: each group in one PostgreSQL transaction
 * (prepared statements), checkpoints in `consumer_offsets`, the fold of BatchProcessor, and a
 * message that cannot be applied dead-lettered as `unprocessable`.
 */
export function ratingBatchHandler(
  db: DataSource,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  topics: RatingTopics,
  handoff?: OutboxHandoff,
): BatchHandler<Sql> {
  return {
    transaction: (work) => db.transaction((manager) => work(preparedSqlOf(manager))),
    checkpoints: OffsetStore.checkpointsOf(RATING_CONSUMER, topic),
    apply: async (sql, messages) =>
      (await new BatchProcessor(sql, ladders, topics, handoff).process(messages)).outcomes,
    quarantine: (sql, message, error) =>
      new BatchProcessor(sql, ladders, topics, handoff).setAside(message, error),
    // The database's failures by its codes, any Kafka one by the broker's (ADR 36).
    classify: kafkaFirst(classifyFailure),
  };
}
