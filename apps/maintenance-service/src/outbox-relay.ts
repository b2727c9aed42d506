import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { OutboxRelayLoop } from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import { MaintenanceOutbox, sqlOf } from '@ranking/persistence';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, KAFKA } from './tokens.js';

const BATCH = 500;

/** Publishes the decided closes and penalties the maintenance transactions left in its outbox. */
@Injectable()
export class OutboxRelay
  extends OutboxRelayLoop
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    @Inject(KAFKA) kafka: Kafka,
    @Inject(DATA_SOURCE) db: DataSource,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
  ) {
    super(kafka, {
      logger: new Logger(OutboxRelay.name),
      busyAt: BATCH,
      round: (publish) =>
        db.transaction(async (manager) => {
          const outbox = new MaintenanceOutbox(sqlOf(manager));
          const rows = await outbox.claim(BATCH);
          if (rows.length === 0) return 0;
          await publish(rows);
          await outbox.delete(rows.map((r) => r.id));
          return rows.length;
        }),
    });
    metrics.countOutbox(() => new MaintenanceOutbox(sqlOf(db.manager)).pending());
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  /** After the consumer and the ticker stopped (they depend on it): what they left goes first. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
