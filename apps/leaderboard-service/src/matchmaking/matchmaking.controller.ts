import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCommonProblems, ApiProblem } from '../conventions/api-responses.js';
import { API_VERSION } from '../conventions/api-version.js';
import { LeaderboardQueries } from '../ladders/leaderboard-queries.js';
import { OpponentsAnswer, PredictionAnswer, PredictRequest } from './matchmaking-answers.js';
import { MatchmakingQueries } from './matchmaking-queries.js';
import { OpponentsQuery } from './opponents.query.js';
import { proposedGame } from './predict-request.js';

@ApiTags('matchmaking')
@ApiCommonProblems()
@Controller({ path: 'ladders/:ladder', version: API_VERSION })
export class MatchmakingController {
  constructor(
    private readonly ladders: LeaderboardQueries,
    private readonly queries: MatchmakingQueries,
  ) {}

  @Get('players/:player/opponents')
  @ApiOperation({
    operationId: 'listOpponents',
    summary:
      'Active players (a counted game in the last 14 days) closest in skill, with win probability and match quality',
  })
  @ApiOkResponse({ description: 'the opponents', type: OpponentsAnswer })
  @ApiProblem(400, 'limit is not 1..100')
  @ApiProblem(404, 'unknown ladder, or a player it does not know')
  opponents(
    @Param('ladder') id: string,
    @Param('player') player: string,
    @Query() query: OpponentsQuery,
  ): Promise<OpponentsAnswer> {
    return this.queries.opponents(this.ladders.ladder(id), player, query.limit ?? 10);
  }

  @Post('predict')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'predictGame',
    summary:
      "A proposed game's win probability per side and its match quality (unknown players at the prior)",
  })
  @ApiBody({ type: PredictRequest })
  @ApiOkResponse({ description: 'the prediction', type: PredictionAnswer })
  @ApiProblem(400, "the body is not a game of the ladder's shapes; the message names the path")
  @ApiProblem(404, 'unknown ladder')
  @ApiProblem(413, 'a body over HTTP_BODY_LIMIT_BYTES')
  predict(@Param('ladder') id: string, @Body() body: unknown): Promise<PredictionAnswer> {
    const ladder = this.ladders.ladder(id);
    return this.queries.predict(ladder, proposedGame(body, ladder));
  }
}
