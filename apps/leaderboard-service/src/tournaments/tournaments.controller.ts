import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TournamentQueries } from './tournament-queries.js';

@ApiTags('tournaments')
@Controller('tournaments')
export class TournamentsController {
  constructor(private readonly queries: TournamentQueries) {}

  @Get()
  @ApiOperation({ summary: 'Configured tournaments: ladders, groups, status' })
  @ApiOkResponse({
    description:
      '{ tournaments: [{ id, name, ladder, ladders, groups, players, status, games, qualified }] }',
  })
  list() {
    return this.queries.list();
  }

  @Get(':id')
  @ApiOperation({
    summary:
      "A tournament's group stage: tables (with play-off-needed flags), matches with their games, the play-off group and who advances",
  })
  @ApiOkResponse({
    description:
      '{ id, name, ladder, complete, groups: [{ id, ladder, players, complete, standings: [{ position, player, played, matchPoints, smallPoints, playoffNeeded, fate, ... }], matches: [{ id, players, status, score, winner, games }] }], playoff, advancement: { perGroup, qualified, toPlayoff, playoffNeeded }, ignored }',
  })
  @ApiNotFoundResponse({ description: 'no tournament with this id is configured' })
  tournament(@Param('id') id: string) {
    return this.queries.view(id);
  }
}
