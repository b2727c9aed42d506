import { Module } from '@nestjs/common';
import { BoardsModule } from '../boards/boards.module.js';
import { DailyPageCache } from '../boards/daily-page-cache.js';
import { LaddersController } from './ladders.controller.js';
import { LeaderboardQueries } from './leaderboard-queries.js';

/** GET /ladders and the boards. */
@Module({
  imports: [BoardsModule],
  controllers: [LaddersController],
  providers: [LeaderboardQueries, DailyPageCache],
  exports: [LeaderboardQueries],
})
export class LaddersModule {}
