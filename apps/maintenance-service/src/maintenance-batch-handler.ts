import type { BatchHandler } from '@ranking/kafka';
import {
  classifyFailure,
  deadLetterOf,
  MaintenanceOutbox,
  MessageLog,
  OffsetStore,
  type Sql,
  sqlOf,
  unprocessable,
} from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { applyMaintenanceMessages, MAINTENANCE_CONSUMER } from './maintenance-batch.js';

/**
 * The maintenance service's part of the consumer protocol: each group in one PostgreSQL
 * transaction, checkpoints in `consumer_offsets` under its own name, clocks and disconnect
 * counters, and a message it cannot apply recorded as its own `unprocessable` rejection and
 * dead-lettered through its outbox.
 */
export function maintenanceBatchHandler(
  db: DataSource,
  ladders: ReadonlyMap<string, LadderConfig>,
  topics: { ladderEvents: string; deadLetter: string },
): BatchHandler<Sql> {
  return {
    transaction: (work) => db.transaction((manager) => work(sqlOf(manager))),
    checkpoints: OffsetStore.checkpointsOf(MAINTENANCE_CONSUMER, topics.ladderEvents),
    apply: async (sql, messages) => {
      await applyMaintenanceMessages(sql, ladders, topics.ladderEvents, messages);
    },
    quarantine: async (sql, message, error) => {
      const rejected = unprocessable(message, error);
      await new MessageLog(sql).recordRejected([rejected], MAINTENANCE_CONSUMER);
      const letter = deadLetterOf(rejected, topics.deadLetter, MAINTENANCE_CONSUMER);
      await new MaintenanceOutbox(sql).enqueue([
        {
          topic: letter.topic,
          key: message.key?.toString('utf8') ?? '',
          // Its outbox keeps bytes: a message without a value goes out empty.
          value: letter.value ?? Buffer.alloc(0),
          headers: letter.headers,
        },
      ]);
    },
    classify: classifyFailure,
  };
}
