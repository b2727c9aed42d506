import { type DynamicModule, Module } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { OperationsModule } from '@ranking/operations';
import type { LadderConfig } from '@ranking/rating';
import { BoardsModule } from './boards/boards.module.js';
import { InfrastructureModule } from './infrastructure.module.js';
import { IngestionModule } from './ingestion/ingestion.module.js';
import { LaddersModule } from './ladders/ladders.module.js';
import { MatchmakingModule } from './matchmaking/matchmaking.module.js';
import { OpsModule } from './ops/ops.module.js';
import { PageModule } from './page/page.module.js';
import { PlayersModule } from './players/players.module.js';
import { ReviewModule } from './review/review.module.js';
import { TournamentsModule } from './tournaments/tournaments.module.js';

/** The leaderboard service: one module per API area (a new area is one more import). */
@Module({})
export class LeaderboardServiceModule {
  static forRoot(env: Environment, ladders: ReadonlyMap<string, LadderConfig>): DynamicModule {
    return {
      module: LeaderboardServiceModule,
      imports: [
        OperationsModule,
        InfrastructureModule.forRoot(env, ladders),
        BoardsModule,
        LaddersModule,
        PlayersModule,
        MatchmakingModule,
        TournamentsModule,
        IngestionModule,
        ReviewModule,
        OpsModule.forRoot(env),
        PageModule,
      ],
    };
  }
}
