import { BadRequestException, Controller, Get, Header, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { isRealDate } from '../boards/board-dates.js';
import { decodeCursor } from '../boards/page-cursor.js';
import { instantOf } from '../instant-query.js';
import { BoardPageSchema, ErrorSchema, StoredBoardsSchema } from './board-schemas.js';
import { LeaderboardQueries } from './leaderboard-queries.js';
import { LeaderboardQuery } from './leaderboard.query.js';
import { PointInTimeQueries } from './point-in-time-queries.js';

@ApiTags('ladders')
@Controller('ladders')
export class LaddersController {
  constructor(
    private readonly queries: LeaderboardQueries,
    private readonly pointInTime: PointInTimeQueries,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Ladders: rule sets, time zones, the current board' })
  @ApiOkResponse({ description: '{ ladders: [...] }' })
  list() {
    return this.queries.ladderList();
  }

  @Get(':ladder/boards')
  @ApiOperation({ summary: 'The daily (06:00) boards kept for a ladder, newest first' })
  @ApiOkResponse({ type: StoredBoardsSchema })
  @ApiNotFoundResponse({ type: ErrorSchema, description: 'no such ladder, or it has no boards' })
  boards(@Param('ladder') id: string) {
    return this.queries.boards(this.queries.ladder(id, true));
  }

  @Get(':ladder/leaderboard')
  @ApiOperation({
    summary:
      'Ranked rows of a daily (06:00) board, of the live board, or of the live board as of an instant (at), a page at a time',
    description:
      "With at: the live board as it was then (the state after every change the rating service had made by that instant; empty before the ladder's first), paged as the live board, marked live: false.",
  })
  @ApiOkResponse({ type: BoardPageSchema })
  @ApiBadRequestResponse({
    type: ErrorSchema,
    description: 'a malformed query, at in the future, at with view=daily or date',
  })
  @ApiNotFoundResponse({ type: ErrorSchema, description: 'no such ladder or board' })
  @ApiConflictResponse({
    type: ErrorSchema,
    description: 'at: the history by then predates the board fields of history rows',
  })
  @Header('Content-Type', 'application/json; charset=utf-8')
  async leaderboard(
    @Param('ladder') id: string,
    @Query() query: LeaderboardQuery,
  ): Promise<Buffer> {
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
    return this.queries.leaderboard(ladder, board, cursor, query.limit ?? 50, position);
  }
}
