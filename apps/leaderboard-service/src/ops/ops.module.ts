import { type DynamicModule, Module } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import {
  consumerServiceChecks,
  type HealthCheck,
  OPERATIONS_CONTROLLERS,
} from '@ranking/operations';
import { BoardKeeper } from '../boards/board-keeper.js';
import { BoardsModule } from '../boards/boards.module.js';
import { RatingChangesConsumer } from '../boards/rating-changes-consumer.js';
import { DATA_SOURCE, KAFKA } from '../tokens.js';
import { OpsController } from './ops.controller.js';

/** Boards in Redis are ready: Redis answers, and no ladder's boards are being rebuilt. */
const redisCheck = (keeper: BoardKeeper): HealthCheck => ({
  name: 'redis',
  check: async () => {
    if (!(await keeper.isReady())) throw new Error('boards are being rebuilt');
  },
});

/** /health, /health/live, /health/ready, /metrics and the bare /ping. */
@Module({})
export class OpsModule {
  static forRoot(env: Environment): DynamicModule {
    return {
      module: OpsModule,
      imports: [BoardsModule],
      controllers: [...OPERATIONS_CONTROLLERS, OpsController],
      providers: consumerServiceChecks({
        db: DATA_SOURCE,
        kafka: KAFKA,
        consumer: RatingChangesConsumer,
        maxLag: env.READY_MAX_LAG_MESSAGES,
        extra: [{ inject: BoardKeeper, check: redisCheck }],
      }),
    };
  }
}
