import { type DynamicModule, Global, Module, Logger } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { kafkaConnection, serviceKafka } from '@ranking/kafka';
import {
  openServiceDataSource,
  HistoryReader,
  SkillReader,
  PointInTimeReader,
  ServiceTokenRepository,
  type Sql,
  StandingsReader,
} from '@ranking/persistence';
import { closedOnShutdown } from '@ranking/operations';
import type { LadderConfig } from '@ranking/rating';
import { BoardStore, redisClient, type RedisClient } from '@ranking/redis';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { Metrics } from './ops/metrics.js';
import { statementTimeoutUrl } from './statement-timeout.js';
import {
  API_DATA_SOURCE,
  API_STANDINGS,
  DATA_SOURCE,
  ENVIRONMENT,
  KAFKA,
  LADDERS,
  REDIS,
} from './tokens.js';

const sqlOf = (db: DataSource): Sql => ({
  query: (text, params) => db.query(text, params),
});

/**
 * Connections and stores every module of the service shares. PostgreSQL is two pools: the
 * boards' consumer and rebuilds read whole ladders on DATA_SOURCE, unlimited; what requests
 * ask runs on API_DATA_SOURCE, whose statements PostgreSQL cancels past API_STATEMENT_TIMEOUT_MS
 * (a request can then not hold a connection and a core for longer), and whose connections the
 * consumer never waits for.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(env: Environment, ladders: ReadonlyMap<string, LadderConfig>): DynamicModule {
    const providers = [
      { provide: ENVIRONMENT, useValue: env },
      { provide: LADDERS, useValue: ladders },
      {
        provide: DATA_SOURCE,
        useFactory: () =>
          openServiceDataSource(env.DATABASE_URL, 'leaderboard-service', new Logger('PostgreSQL')),
      },
      {
        provide: REDIS,
        useFactory: () => redisClient(env.REDIS_URL, 'leaderboard-service'),
      },
      {
        provide: API_DATA_SOURCE,
        useFactory: () =>
          openServiceDataSource(
            statementTimeoutUrl(env.DATABASE_URL, env.API_STATEMENT_TIMEOUT_MS),
            'leaderboard-service-api',
            new Logger('PostgreSQL'),
          ),
      },
      closedOnShutdown<DataSource>(DATA_SOURCE, (db) => db.destroy()),
      closedOnShutdown<DataSource>(API_DATA_SOURCE, (db) => db.destroy()),
      closedOnShutdown<RedisClient>(REDIS, (redis) => redis.quit().catch(() => redis.disconnect())),
      {
        provide: KAFKA,
        useFactory: async (): Promise<Kafka> => {
          return serviceKafka(
            kafkaConnection(env),
            'leaderboard-service',
            env.KAFKA_TOPIC_PREFIX,
            env.LOG_LEVEL,
            // Reads what moved. It also writes producers' HTTP submissions to their intake topics
            // (ADR 34, 39), which `ranking producer add` creates.
            ['ratingChanges'],
          );
        },
      },
      {
        provide: BoardStore,
        inject: [REDIS],
        useFactory: (redis: RedisClient) => new BoardStore(redis, env.REDIS_KEY_PREFIX),
      },
      {
        provide: StandingsReader,
        inject: [DATA_SOURCE],
        useFactory: (db: DataSource) => new StandingsReader(sqlOf(db)),
      },
      {
        provide: API_STANDINGS,
        inject: [API_DATA_SOURCE],
        useFactory: (db: DataSource) => new StandingsReader(sqlOf(db)),
      },
      {
        provide: HistoryReader,
        inject: [API_DATA_SOURCE],
        useFactory: (db: DataSource) => new HistoryReader(sqlOf(db)),
      },
      {
        provide: SkillReader,
        inject: [API_DATA_SOURCE],
        useFactory: (db: DataSource) => new SkillReader(sqlOf(db)),
      },
      {
        // Service tokens (ADR 34, 35), checked at every request of the token-holders' routes.
        provide: ServiceTokenRepository,
        inject: [API_DATA_SOURCE],
        useFactory: (db: DataSource) => new ServiceTokenRepository(sqlOf(db)),
      },
      {
        provide: PointInTimeReader,
        inject: [API_DATA_SOURCE],
        useFactory: (db: DataSource) => new PointInTimeReader(sqlOf(db)),
      },
      Metrics,
    ];
    return {
      module: InfrastructureModule,
      providers,
      exports: providers.map((p) => ('provide' in p ? p.provide : p)),
    };
  }
}
