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
import { OutboxRelay } from './outbox-relay.js';
import { RatingConsumer } from './rating-consumer.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

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
      serviceKafka(env.KAFKA_BROKERS, 'rating-service', env.KAFKA_TOPIC_PREFIX, env.LOG_LEVEL),
  },
  OutboxRelay,
  RatingConsumer,
  {
    provide: READINESS_CHECKS,
    inject: [DATA_SOURCE, KAFKA, RatingConsumer],
    useFactory: (db: DataSource, kafka: Kafka, consumer: RatingConsumer) => [
      postgresCheck(db),
      kafkaCheck(kafka),
      consumerReadiness('consumer', consumer, env.READY_MAX_LAG_MESSAGES),
    ],
  },
  {
    provide: LIVENESS_CHECKS,
    inject: [RatingConsumer],
    useFactory: (consumer: RatingConsumer) => [consumerLiveness('consumer', consumer)],
  },
];
