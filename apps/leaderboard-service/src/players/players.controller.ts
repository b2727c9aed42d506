import { Controller, Get, Header, NotFoundException, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HistoryReader } from '@ranking/persistence';
import { ApiCommonProblems, ApiProblem } from '../conventions/api-responses.js';
import { API_VERSION } from '../conventions/api-version.js';
import { instantOf } from '../instant-query.js';
import { PlayerMatchesSchema, PlayerSchema } from '../ladders/board-schemas.js';
import { LeaderboardQueries } from '../ladders/leaderboard-queries.js';
import { PointInTimeQueries } from '../ladders/point-in-time-queries.js';
import { HistoryPageSchema } from './history-schemas.js';
import { PlayerSearch } from './player-search.js';
import { HistoryByIdQuery, PlayerByIdQuery } from './player-id-query.js';
import { HistoryQuery, PlayerQuery, PlayerSearchQuery } from './player.query.js';

/**
 * Players: search, a profile and a history, by id in the path (`players/:player`) or, for ids
 * no path segment can carry (`.` and `..`: clients remove such segments), in the query
 * (`player?id=`), which the page always uses.
 */
@ApiTags('players')
@ApiCommonProblems()
@Controller({ path: 'ladders/:ladder', version: API_VERSION })
export class PlayersController {
  constructor(
    private readonly queries: LeaderboardQueries,
    private readonly pointInTime: PointInTimeQueries,
    private readonly history: HistoryReader,
    private readonly search: PlayerSearch,
  ) {}

  @Get('players')
  @ApiOperation({
    operationId: 'searchPlayers',
    summary: 'Players whose id starts with a prefix (who have played), in id order',
  })
  @ApiOkResponse({ description: 'the matching players', type: PlayerMatchesSchema })
  @ApiProblem(400, 'no prefix, or a malformed query')
  @ApiProblem(404, 'no such ladder')
  @Header('Content-Type', 'application/json; charset=utf-8')
  players(@Param('ladder') id: string, @Query() query: PlayerSearchQuery): Promise<string> {
    return this.search.byPrefix(this.queries.ladder(id), query.prefix, query.limit ?? 10);
  }

  @Get('players/:player')
  @ApiOperation({
    operationId: 'getPlayer',
    summary:
      'A player: rating, record, title or level, skill estimate, daily and live rank, neighbours; or as of an instant (at)',
    description:
      'With at: the player as the live board showed them then, with their rank and neighbours on it (no daily board); played: false when they had not played by then.',
  })
  @ApiOkResponse({ description: 'the player', type: PlayerSchema })
  @ApiProblem(400, 'a malformed query, at in the future')
  @ApiProblem(404, 'no such ladder, or the player has no games on it')
  @ApiProblem(409, 'at: the history by then predates the board fields of history rows')
  @Header('Content-Type', 'application/json; charset=utf-8')
  player(
    @Param('ladder') id: string,
    @Param('player') player: string,
    @Query() query: PlayerQuery,
  ): Promise<string> {
    const ladder = this.queries.ladder(id, true);
    if (query.at !== undefined)
      return this.pointInTime.player(ladder, player, instantOf(query.at), query.around ?? 5);
    return this.queries.player(ladder, player, query.around ?? 5);
  }

  @Get('player')
  @ApiOperation({
    operationId: 'getPlayerById',
    summary: 'A player, as GET players/{player}, named in the query (any id, "." and ".." too)',
  })
  @ApiOkResponse({ description: 'the player', type: PlayerSchema })
  @ApiProblem(400, 'a malformed query or id')
  @ApiProblem(404, 'no such ladder, or the player has no games on it')
  @ApiProblem(409, 'at: the history by then predates the board fields of history rows')
  @Header('Content-Type', 'application/json; charset=utf-8')
  playerById(@Param('ladder') id: string, @Query() query: PlayerByIdQuery): Promise<string> {
    return this.player(id, query.id, query);
  }

  @Get('player/history')
  @ApiOperation({
    operationId: 'getPlayerHistoryById',
    summary:
      "A player's rating changes, as GET players/{player}/history, the player named in the query",
  })
  @ApiOkResponse({ description: "a page of the player's rating changes", type: HistoryPageSchema })
  @ApiProblem(400, 'a malformed query or id')
  @ApiProblem(404, 'no such ladder, or no history')
  playerHistoryById(@Param('ladder') id: string, @Query() query: HistoryByIdQuery) {
    return this.playerHistory(id, query.id, query);
  }

  @Get('players/:player/history')
  @ApiOperation({
    operationId: 'getPlayerHistory',
    summary:
      "A player's rating changes, newest first, each with its why, its event and the game's other players",
  })
  @ApiOkResponse({ description: "a page of the player's rating changes", type: HistoryPageSchema })
  @ApiProblem(400, 'a malformed query')
  @ApiProblem(404, 'no such ladder, or no history')
  async playerHistory(
    @Param('ladder') id: string,
    @Param('player') player: string,
    @Query() query: HistoryQuery,
  ) {
    const ladder = this.queries.ladder(id);
    const limit = query.limit ?? 50;
    const entries = await this.history.page(
      ladder.id,
      player,
      query.cursor === undefined ? null : Number(query.cursor),
      limit,
    );
    if (entries.length === 0 && query.cursor === undefined)
      throw new NotFoundException(
        `player "${player}" has no rating history on ladder "${ladder.id}"`,
      );
    const last = entries[entries.length - 1];
    return {
      ladder: ladder.id,
      player,
      entries,
      nextCursor: entries.length === limit && last ? String(last.id) : null,
    };
  }
}
