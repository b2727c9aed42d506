import { Module } from '@nestjs/common';
import { LaddersController } from './ladders.controller.js';
import { LeaderboardQueries } from './leaderboard-queries.js';

/** GET /ladders and the boards. */
@Module({
  controllers: [LaddersController],
  providers: [LeaderboardQueries],
  exports: [LeaderboardQueries],
})
export class LaddersModule {}
