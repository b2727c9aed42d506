import { type DynamicModule, Module, Logger } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { kafkaConnection, serviceKafka } from '@ranking/kafka';
import {
  closedOnShutdown,
  consumerServiceChecks,
  OPERATIONS_CONTROLLERS,
  OperationsModule,
} from '@ranking/operations';
import { openServiceDataSource } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
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
              kafkaConnection(env),
              'maintenance-service',
              env.KAFKA_TOPIC_PREFIX,
              env.LOG_LEVEL,
              ['ladderEvents', 'deadLetter'],
            ),
        },
        OutboxRelay,
        DisconnectConsumer,
        PeriodTicker,
        ...consumerServiceChecks({
          db: DATA_SOURCE,
          kafka: KAFKA,
          consumer: DisconnectConsumer,
          maxLag: env.READY_MAX_LAG_MESSAGES,
        }),
      ],
    };
  }
}
