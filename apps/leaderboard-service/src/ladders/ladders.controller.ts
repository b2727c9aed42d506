import { BadRequestException, Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { isRealDate } from '../boards/board-dates.js';
import { decodeCursor } from '../boards/page-cursor.js';
import { LeaderboardQueries } from './leaderboard-queries.js';
import { LeaderboardQuery } from './leaderboard.query.js';

@ApiTags('ladders')
@Controller('ladders')
export class LaddersController {
  constructor(private readonly queries: LeaderboardQueries) {}

  @Get()
  @ApiOperation({ summary: 'Ladders: rule sets, time zones, the current board' })
  @ApiOkResponse({ description: '{ ladders: [...] }' })
  list() {
    return this.queries.ladderList();
  }

  @Get(':ladder/leaderboard')
  @ApiOperation({
    summary: 'Ranked rows of a daily (06:00) board or of the live board, a page at a time',
  })
  @ApiOkResponse({
    description: '{ view, live, date?, total, rows: [{ rank, player, rating, ... }], nextCursor }',
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
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && cursor === null)
      throw new BadRequestException('cursor is not one this API gave out');
    const board = this.queries.boardName(view, query.date);
    return this.queries.leaderboard(ladder, board, cursor, query.limit ?? 50);
  }
}
