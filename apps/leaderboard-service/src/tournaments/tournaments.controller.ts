import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCommonProblems, ApiProblem } from '../conventions/api-responses.js';
import { API_VERSION } from '../conventions/api-version.js';
import { TournamentQueries } from './tournament-queries.js';
import { TournamentListSchema, TournamentSchema } from './tournament-schemas.js';

@ApiTags('tournaments')
@ApiCommonProblems()
@Controller({ path: 'tournaments', version: API_VERSION })
export class TournamentsController {
  constructor(private readonly queries: TournamentQueries) {}

  @Get()
  @ApiOperation({
    operationId: 'listTournaments',
    summary: 'Configured tournaments: ladders, groups, status',
  })
  @ApiOkResponse({ description: 'the configured tournaments', type: TournamentListSchema })
  list() {
    return this.queries.list();
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getTournament',
    summary:
      "A tournament's group stage: tables (with play-off-needed flags), matches with their games, the play-off group and who advances",
  })
  @ApiOkResponse({ description: "the tournament's group stage", type: TournamentSchema })
  @ApiProblem(404, 'no tournament with this id is configured')
  tournament(@Param('id') id: string) {
    return this.queries.view(id);
  }
}
