import { type DynamicModule, Module } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { kafkaConnection, serviceKafka } from '@ranking/kafka';
import {
  consumerServiceChecks,
  OPERATIONS_CONTROLLERS,
  OperationsModule,
} from '@ranking/operations';
import type { LadderConfig } from '@ranking/rating';
import { IntakeConsumer } from './intake-consumer.js';
import { ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

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
          provide: KAFKA,
          useFactory: () =>
            serviceKafka(
              kafkaConnection(env),
              'intake-service',
              env.KAFKA_TOPIC_PREFIX,
              env.LOG_LEVEL,
              ['gameResults', 'gameResultsRejected', 'ladderEvents', 'deadLetter'],
            ),
        },
        IntakeConsumer,
        ...consumerServiceChecks({
          kafka: KAFKA,
          consumer: IntakeConsumer,
          maxLag: env.READY_MAX_LAG_MESSAGES,
        }),
      ],
    };
  }
}
