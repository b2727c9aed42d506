import { Module } from '@nestjs/common';
import {
  consumerLiveness,
  consumerReadiness,
  type HealthCheck,
  kafkaCheck,
  LIVENESS_CHECKS,
  OPERATIONS_CONTROLLERS,
  postgresCheck,
  READINESS_CHECKS,
} from '@ranking/operations';
import type { Environment } from '@ranking/config';
import { BoardStore } from '@ranking/redis';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { BoardsModule } from '../boards/boards.module.js';
import { RatingChangesConsumer } from '../boards/rating-changes-consumer.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA } from '../tokens.js';
import { OpsController } from './ops.controller.js';

/** Boards in Redis are ready: answers, and not being rebuilt after Redis lost them. */
const redisCheck = (store: BoardStore): HealthCheck => ({
  name: 'redis',
  check: async () => {
    if (!(await store.isReady())) throw new Error('boards are being rebuilt');
  },
});

/** /health, /health/live, /health/ready, /metrics and the bare /ping. */
@Module({
  imports: [BoardsModule],
  controllers: [...OPERATIONS_CONTROLLERS, OpsController],
  providers: [
    {
      provide: READINESS_CHECKS,
      inject: [ENVIRONMENT, DATA_SOURCE, KAFKA, BoardStore, RatingChangesConsumer],
      useFactory: (
        env: Environment,
        db: DataSource,
        kafka: Kafka,
        store: BoardStore,
        consumer: RatingChangesConsumer,
      ) => [
        postgresCheck(db),
        redisCheck(store),
        kafkaCheck(kafka),
        consumerReadiness('consumer', consumer, env.READY_MAX_LAG_MESSAGES),
      ],
    },
    {
      provide: LIVENESS_CHECKS,
      inject: [RatingChangesConsumer],
      useFactory: (consumer: RatingChangesConsumer) => [consumerLiveness('consumer', consumer)],
    },
  ],
})
export class OpsModule {}
