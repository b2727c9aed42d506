import {
  BadRequestException,
  Controller,
  Get,
  Header,
  Headers,
  Param,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { isRealDate } from '../boards/board-dates.js';
import { decodeCursor } from '../boards/page-cursor.js';
import { ApiCommonProblems, ApiProblem } from '../conventions/api-responses.js';
import { API_VERSION } from '../conventions/api-version.js';
import { CACHE_CONTROL, validatedBody } from '../conventions/cache-validation.js';
import { instantOf } from '../instant-query.js';
import { BoardPageSchema, StoredBoardsSchema } from './board-schemas.js';
import { LadderListSchema } from './ladder-list-schemas.js';
import { LeaderboardQueries } from './leaderboard-queries.js';
import { LeaderboardQuery } from './leaderboard.query.js';
import { PointInTimeQueries } from './point-in-time-queries.js';

/** What a daily page's answer carries for caches. */
const CACHE_HEADERS = {
  ETag: {
    description: "the page's bytes' tag (send it as If-None-Match)",
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: `daily, dated: ${CACHE_CONTROL.datedBoard}; daily, newest: ${CACHE_CONTROL.newestBoard}; live or at: ${CACHE_CONTROL.live}`,
    schema: { type: 'string' },
  },
};

@ApiTags('ladders')
@ApiCommonProblems()
@Controller({ path: 'ladders', version: API_VERSION })
export class LaddersController {
  constructor(
    private readonly queries: LeaderboardQueries,
    private readonly pointInTime: PointInTimeQueries,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listLadders',
    summary: 'Ladders: rule sets, time zones, the current board',
  })
  @ApiOkResponse({ description: 'the configured ladders', type: LadderListSchema })
  list() {
    return this.queries.ladderList();
  }

  @Get(':ladder/boards')
  @ApiOperation({
    operationId: 'listBoards',
    summary: 'The daily (06:00) boards kept for a ladder, newest first',
  })
  @ApiOkResponse({ description: "the ladder's daily boards", type: StoredBoardsSchema })
  @ApiProblem(404, 'no such ladder, or it has no boards')
  boards(@Param('ladder') id: string) {
    return this.queries.boards(this.queries.ladder(id, true));
  }

  @Get(':ladder/leaderboard')
  @ApiOperation({
    operationId: 'getLeaderboard',
    summary:
      'Ranked rows of a daily (06:00) board, of the live board, or of the live board as of an instant (at), a page at a time',
    description:
      "With at: the live board as it was then (the state after every change the rating service had made by that instant; empty before the ladder's first), paged as the live board, marked live: false. A daily board's page carries an ETag and answers 304 to a matching If-None-Match.",
  })
  @ApiOkResponse({
    description: 'a page of the board',
    type: BoardPageSchema,
    headers: CACHE_HEADERS,
  })
  @ApiResponse({
    status: 304,
    description: "daily: If-None-Match named the page's ETag; no body",
    headers: CACHE_HEADERS,
  })
  @ApiProblem(400, 'a malformed query, at in the future, at with view=daily or date')
  @ApiProblem(404, 'no such ladder or board')
  @ApiProblem(409, 'at: the history by then predates the board fields of history rows')
  @Header('Content-Type', 'application/json; charset=utf-8')
  async leaderboard(
    @Param('ladder') id: string,
    @Query() query: LeaderboardQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | string> {
    const ladder = this.queries.ladder(id, true);
    const view = query.view ?? 'daily';
    if (query.date !== undefined && !isRealDate(query.date))
      throw new BadRequestException(`date ${query.date} is not a real date`);
    if (view === 'live' && query.date !== undefined)
      throw new BadRequestException('date applies to the daily view only');
    if (query.at !== undefined && (query.view === 'daily' || query.date !== undefined))
      throw new BadRequestException(
        'at gives the live board as of an instant: it cannot be combined with view=daily or date',
      );
    if (query.rank !== undefined && query.cursor !== undefined)
      throw new BadRequestException('rank and cursor both say where the page starts: give one');
    const position = (query.rank ?? 1) - 1;
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && cursor === null)
      throw new BadRequestException('cursor is not one this API gave out');
    if (query.at !== undefined)
      return this.pointInTime.leaderboard(
        ladder,
        instantOf(query.at),
        cursor,
        query.limit ?? 50,
        position,
      );
    const board = this.queries.boardName(view, query.date);
    const body = await this.queries.leaderboard(ladder, board, cursor, query.limit ?? 50, position);
    if (view === 'live') return body;
    const cacheControl =
      query.date === undefined ? CACHE_CONTROL.newestBoard : CACHE_CONTROL.datedBoard;
    return validatedBody(reply, body, cacheControl, ifNoneMatch);
  }
}
