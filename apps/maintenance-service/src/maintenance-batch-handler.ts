import { type BatchHandler, kafkaFirst } from '@ranking/kafka';
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

/** A maintenance transaction: its SQL, and the penalties it decided by ladder (counted once it commits). */
export interface MaintenanceTx {
  readonly sql: Sql;
  readonly penalties: Map<string, number>;
}

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
  /** Told the penalties of each committed transaction, by ladder (metrics). */
  penalized: (byLadder: ReadonlyMap<string, number>) => void = () => undefined,
): BatchHandler<MaintenanceTx> {
  const checkpoints = OffsetStore.checkpointsOf(MAINTENANCE_CONSUMER, topics.ladderEvents);
  return {
    transaction: async (work) => {
      const penalties = new Map<string, number>();
      const result = await db.transaction((manager) => work({ sql: sqlOf(manager), penalties }));
      penalized(penalties);
      return result;
    },
    checkpoints: {
      lock: (tx, logEnds) => checkpoints.lock(tx.sql, logEnds),
      save: (tx, next) => checkpoints.save(tx.sql, next),
      all: (tx) => checkpoints.all(tx.sql),
    },
    apply: async (tx, messages) => {
      const { penaltiesByLadder } = await applyMaintenanceMessages(
        tx.sql,
        ladders,
        topics.ladderEvents,
        messages,
      );
      for (const [ladder, n] of penaltiesByLadder)
        tx.penalties.set(ladder, (tx.penalties.get(ladder) ?? 0) + n);
    },
    quarantine: async ({ sql }, message, error) => {
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
    // The database's failures by its codes, any Kafka one by the broker's (ADR 36).
    classify: kafkaFirst(classifyFailure),
  };
}
