import { Module } from '@nestjs/common';
import { BoardsModule } from '../boards/boards.module.js';
import { DailyPageCache } from '../boards/daily-page-cache.js';
import { PointInTimeBoards } from '../boards/point-in-time-boards.js';
import { LaddersController } from './ladders.controller.js';
import { LeaderboardQueries } from './leaderboard-queries.js';
import { PointInTimeQueries } from './point-in-time-queries.js';

/** GET /ladders and the boards, now and as of an instant. */
@Module({
  imports: [BoardsModule],
  controllers: [LaddersController],
  providers: [LeaderboardQueries, DailyPageCache, PointInTimeBoards, PointInTimeQueries],
  exports: [LeaderboardQueries, PointInTimeQueries],
})
export class LaddersModule {}
