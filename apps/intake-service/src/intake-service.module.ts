import { type DynamicModule, Logger, Module } from '@nestjs/common';
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
import { ProducerIntakes } from './producer-intakes.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

@Module({})
export class IntakeServiceModule {
  /** The service for a configuration validated before start-up. */
  static forRoot(env: Environment, ladders: ReadonlyMap<string, LadderConfig>): DynamicModule {
    return {
      module: IntakeServiceModule,
      imports: [OperationsModule],
      controllers: OPERATIONS_CONTROLLERS,
      providers: [
        { provide: ENVIRONMENT, useValue: env },
        { provide: LADDERS, useValue: ladders },
        {
          provide: DATA_SOURCE,
          useFactory: () =>
            openServiceDataSource(env.DATABASE_URL, 'intake-service', new Logger('PostgreSQL')),
        },
        closedOnShutdown<DataSource>(DATA_SOURCE, (db) => db.destroy()),
        {
          provide: KAFKA,
          useFactory: () =>
            // The producers' topics are made by `ranking producer add`, not by the intake.
            serviceKafka(
              kafkaConnection(env),
              'intake-service',
              env.KAFKA_TOPIC_PREFIX,
              env.LOG_LEVEL,
              ['ladderEvents', 'deadLetter'],
            ),
        },
        ProducerIntakes,
        ...consumerServiceChecks({
          db: DATA_SOURCE,
          kafka: KAFKA,
          consumer: ProducerIntakes,
          maxLag: env.READY_MAX_LAG_MESSAGES,
        }),
      ],
    };
  }
}
