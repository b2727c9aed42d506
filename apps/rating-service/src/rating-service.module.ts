import { type DynamicModule, Module, Logger } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { kafkaConnection, serviceKafka } from '@ranking/kafka';
import {
  closedOnShutdown,
  consumerServiceChecks,
  OPERATIONS_CONTROLLERS,
  OperationsModule,
} from '@ranking/operations';
import { openServiceDataSource, OutboxHandoff } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { OutboxRelay } from './outbox-relay.js';
import { RatingConsumer } from './rating-consumer.js';
import { RefoldThread } from './refold-thread.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS, OUTBOX_HANDOFF } from './tokens.js';

@Module({})
export class RatingServiceModule {
  /** The service for a configuration validated before start-up. */
  static forRoot(env: Environment, ladders: ReadonlyMap<string, LadderConfig>): DynamicModule {
    return {
      module: RatingServiceModule,
      imports: [OperationsModule],
      controllers: OPERATIONS_CONTROLLERS,
      providers: providers(env, ladders),
    };
  }
}

const providers = (env: Environment, ladders: ReadonlyMap<string, LadderConfig>) => [
  { provide: ENVIRONMENT, useValue: env },
  { provide: LADDERS, useValue: ladders },
  { provide: OUTBOX_HANDOFF, useValue: new OutboxHandoff() },
  {
    provide: DATA_SOURCE,
    inject: [ENVIRONMENT],
    useFactory: (env: Environment) =>
      openServiceDataSource(env.DATABASE_URL, 'rating-service', new Logger('PostgreSQL')),
  },
  closedOnShutdown<DataSource>(DATA_SOURCE, (db) => db.destroy()),
  {
    provide: KAFKA,
    inject: [ENVIRONMENT],
    useFactory: (env: Environment) =>
      serviceKafka(kafkaConnection(env), 'rating-service', env.KAFKA_TOPIC_PREFIX, env.LOG_LEVEL, [
        'ladderEvents',
        'ratingChanges',
        'deadLetter',
      ]),
  },
  OutboxRelay,
  RatingConsumer,
  RefoldThread,
  ...consumerServiceChecks({
    db: DATA_SOURCE,
    kafka: KAFKA,
    consumer: RatingConsumer,
    maxLag: env.READY_MAX_LAG_MESSAGES,
  }),
];
