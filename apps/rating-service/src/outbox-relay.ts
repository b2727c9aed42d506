import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { OutboxRelayLoop } from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import { MessageLog, type OutboxHandoff, preparedSqlOf, sqlOf } from '@ranking/persistence';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, KAFKA, OUTBOX_HANDOFF } from './tokens.js';

/** Outbox rows claimed per round (each holds one transaction's messages). */
const ROWS = 20;

/** Publishes the rating changes and dead letters the transactions left in the outbox. */
@Injectable()
export class OutboxRelay
  extends OutboxRelayLoop
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    @Inject(KAFKA) kafka: Kafka,
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
    @Inject(OUTBOX_HANDOFF) handoff: OutboxHandoff,
  ) {
    super(kafka, {
      logger: new Logger(OutboxRelay.name),
      // A row is a whole transaction's messages: any row at all is worth another round.
      busyAt: 1,
      published: (_rows, seconds) => metrics.outboxRound.observe(seconds),
      round: (publish) =>
        db.transaction(async (manager) => {
          // Only the deletes commit here, after the broker acknowledged: one lost in a crash of
          // PostgreSQL sends its row again (the relay is at least once anyway), so this commit
          // need not wait for the WAL's flush, which on a busy disk holds up the consumer's (ADR 27).
          await manager.query('SET LOCAL synchronous_commit = off');
          const log = new MessageLog(preparedSqlOf(manager), handoff);
          const { rows, messages } = await log.claimOutbox(ROWS);
          if (rows.length === 0) return 0;
          await publish(messages);
          await log.deleteOutbox(rows);
          return rows.length;
        }),
    });
    metrics.countOutbox(() => new MessageLog(sqlOf(db.manager)).pendingOutboxMessages());
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  /** After the consumer stopped (it depends on the relay): what it left is published first. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
