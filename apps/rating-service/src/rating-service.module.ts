import { type DynamicModule, Module } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import type { LadderConfig } from '@ranking/rating';
import { ensureTopics, kafkaClient, topicLayout } from '@ranking/kafka';
import { createDataSource } from '@ranking/persistence';
import type { Kafka } from 'kafkajs';
import { OutboxRelay } from './outbox-relay.js';
import { RatingConsumer } from './rating-consumer.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

@Module({})
export class RatingServiceModule {
  /** The service for a configuration validated before start-up. */
  static forRoot(env: Environment, ladders: ReadonlyMap<string, LadderConfig>): DynamicModule {
    return { module: RatingServiceModule, providers: providers(env, ladders) };
  }
}

const providers = (env: Environment, ladders: ReadonlyMap<string, LadderConfig>) => [
  { provide: ENVIRONMENT, useValue: env },
  { provide: LADDERS, useValue: ladders },
  {
    provide: DATA_SOURCE,
    inject: [ENVIRONMENT],
    useFactory: async (env: Environment) => {
      const db = createDataSource(env.DATABASE_URL, 'rating-service');
      await db.initialize();
      if (await db.showMigrations()) {
        throw new Error('the database has pending migrations; run `npx ranking setup` first');
      }
      return db;
    },
  },
  {
    provide: KAFKA,
    inject: [ENVIRONMENT],
    useFactory: async (env: Environment): Promise<Kafka> => {
      const kafka = kafkaClient(env.KAFKA_BROKERS, 'rating-service');
      const admin = kafka.admin();
      await admin.connect();
      try {
        await ensureTopics(admin, topicLayout(env.KAFKA_TOPIC_PREFIX));
      } finally {
        await admin.disconnect();
      }
      return kafka;
    },
  },
  OutboxRelay,
  RatingConsumer,
];
