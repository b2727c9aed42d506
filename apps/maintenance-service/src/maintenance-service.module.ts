import { type DynamicModule, Module, Logger } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { serviceKafka } from '@ranking/kafka';
import {
  closedOnShutdown,
  consumerLiveness,
  consumerReadiness,
  kafkaCheck,
  LIVENESS_CHECKS,
  OPERATIONS_CONTROLLERS,
  OperationsModule,
  postgresCheck,
  READINESS_CHECKS,
} from '@ranking/operations';
import { openServiceDataSource } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { type Clock, systemClock } from './clock.js';
import { DisconnectConsumer } from './disconnect-consumer.js';
import { OutboxRelay } from './outbox-relay.js';
import { PeriodTicker } from './period-ticker.js';
import { ScheduleController } from './schedule.controller.js';
import { CLOCK, DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

@Module({})
export class MaintenanceServiceModule {
  /** The service for a configuration validated before start-up; tests pass their own clock. */
  static forRoot(
    env: Environment,
    ladders: ReadonlyMap<string, LadderConfig>,
    clock: Clock = systemClock,
  ): DynamicModule {
    return {
      module: MaintenanceServiceModule,
      imports: [OperationsModule],
      controllers: [...OPERATIONS_CONTROLLERS, ScheduleController],
      providers: [
        { provide: ENVIRONMENT, useValue: env },
        { provide: LADDERS, useValue: ladders },
        { provide: CLOCK, useValue: clock },
        {
          provide: DATA_SOURCE,
          inject: [ENVIRONMENT],
          useFactory: (env: Environment) =>
            openServiceDataSource(
              env.DATABASE_URL,
              'maintenance-service',
              new Logger('PostgreSQL'),
            ),
        },
        closedOnShutdown<DataSource>(DATA_SOURCE, (db) => db.destroy()),
        {
          provide: KAFKA,
          inject: [ENVIRONMENT],
          useFactory: (env: Environment) =>
            serviceKafka(
              env.KAFKA_BROKERS,
              'maintenance-service',
              env.KAFKA_TOPIC_PREFIX,
              env.LOG_LEVEL,
            ),
        },
        OutboxRelay,
        DisconnectConsumer,
        PeriodTicker,
        {
          provide: READINESS_CHECKS,
          inject: [DATA_SOURCE, KAFKA, DisconnectConsumer],
          useFactory: (db: DataSource, kafka: Kafka, consumer: DisconnectConsumer) => [
            postgresCheck(db),
            kafkaCheck(kafka),
            consumerReadiness('consumer', consumer, env.READY_MAX_LAG_MESSAGES),
          ],
        },
        {
          provide: LIVENESS_CHECKS,
          inject: [DisconnectConsumer],
          useFactory: (consumer: DisconnectConsumer) => [consumerLiveness('consumer', consumer)],
        },
      ],
    };
  }
}
