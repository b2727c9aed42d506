import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { OutboxRelayLoop } from '@ranking/kafka';
import { MessageLog, preparedSqlOf } from '@ranking/persistence';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, KAFKA } from './tokens.js';

/** Outbox rows claimed per round (each holds one transaction's messages). */
const ROWS = 20;

/** Publishes the rating changes and dead letters the transactions left in the outbox. */
@Injectable()
export class OutboxRelay
  extends OutboxRelayLoop
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  constructor(@Inject(KAFKA) kafka: Kafka, @Inject(DATA_SOURCE) db: DataSource) {
    super(kafka, {
      logger: new Logger(OutboxRelay.name),
      // A row is a whole transaction's messages: any row at all is worth another round.
      busyAt: 1,
      round: (publish) =>
        db.transaction(async (manager) => {
          const log = new MessageLog(preparedSqlOf(manager));
          const { rows, messages } = await log.claimOutbox(ROWS);
          if (rows.length === 0) return 0;
          await publish(messages);
          await log.deleteOutbox(rows);
          return rows.length;
        }),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
