import { type DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { Environment } from '@ranking/config';
import { ensureTopics, kafkaClient, topicLayout } from '@ranking/kafka';
import { createDataSource } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { type Clock, systemClock } from './clock.js';
import { DisconnectConsumer } from './disconnect-consumer.js';
import { HealthController } from './health.controller.js';
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
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, ScheduleController],
      providers: [
        { provide: ENVIRONMENT, useValue: env },
        { provide: LADDERS, useValue: ladders },
        { provide: CLOCK, useValue: clock },
        {
          provide: DATA_SOURCE,
          inject: [ENVIRONMENT],
          useFactory: async (env: Environment): Promise<DataSource> => {
            const db = createDataSource(env.DATABASE_URL, 'maintenance-service');
            await db.initialize();
            if (await db.showMigrations()) {
              await db.destroy();
              throw new Error('the database has pending migrations; run `npx ranking setup` first');
            }
            return db;
          },
        },
        {
          provide: KAFKA,
          inject: [ENVIRONMENT],
          useFactory: async (env: Environment): Promise<Kafka> => {
            const kafka = kafkaClient(env.KAFKA_BROKERS, 'maintenance-service');
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
        DisconnectConsumer,
        PeriodTicker,
      ],
    };
  }
}
