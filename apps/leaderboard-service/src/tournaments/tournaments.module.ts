import { Module } from '@nestjs/common';
import { type Environment, loadTournaments } from '@ranking/config';
import { type Sql, TournamentGames } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { API_DATA_SOURCE, ENVIRONMENT, LADDERS } from '../tokens.js';
import { TournamentQueries } from './tournament-queries.js';
import { TOURNAMENTS } from './tournament-tokens.js';
import { TournamentsController } from './tournaments.controller.js';

const sqlOf = (db: DataSource): Sql => ({ query: (text, params) => db.query(text, params) });

/** GET /tournaments: group tables folded from the event store on each request. */
@Module({
  controllers: [TournamentsController],
  providers: [
    {
      // Read and checked while the service starts: a bad file stops it with one line.
      provide: TOURNAMENTS,
      inject: [ENVIRONMENT, LADDERS],
      useFactory: (env: Environment, ladders: ReadonlyMap<string, LadderConfig>) =>
        loadTournaments(env, ladders),
    },
    {
      provide: TournamentGames,
      inject: [API_DATA_SOURCE],
      useFactory: (db: DataSource) => new TournamentGames(sqlOf(db)),
    },
    TournamentQueries,
  ],
})
export class TournamentsModule {}
