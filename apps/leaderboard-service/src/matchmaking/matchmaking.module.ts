import { Module } from '@nestjs/common';
import { LaddersModule } from '../ladders/ladders.module.js';
import { MatchmakingController } from './matchmaking.controller.js';
import { MatchmakingQueries } from './matchmaking-queries.js';
import { SkillIndexes } from './skill-indexes.js';

/** Opponents closest in skill and predictions of proposed games, for the game servers. */
@Module({
  imports: [LaddersModule],
  controllers: [MatchmakingController],
  providers: [MatchmakingQueries, SkillIndexes],
})
export class MatchmakingModule {}
