import { Controller, Get, Header, NotFoundException, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HistoryReader } from '@ranking/persistence';
import { LeaderboardQueries } from '../ladders/leaderboard-queries.js';
import { HistoryQuery, PlayerQuery } from './player.query.js';

@ApiTags('players')
@Controller('ladders/:ladder/players')
export class PlayersController {
  constructor(
    private readonly queries: LeaderboardQueries,
    private readonly history: HistoryReader,
  ) {}

  @Get(':player')
  @ApiOperation({
    summary:
      'A player: rating, record, title or level, skill estimate, daily and live rank, neighbours',
  })
  @ApiOkResponse({
    description:
      '{ player, rating, wins, losses, draws, ranked, skill: { mu, sigma }, live: { rank, around }, daily }',
  })
  @Header('Content-Type', 'application/json; charset=utf-8')
  player(
    @Param('ladder') id: string,
    @Param('player') player: string,
    @Query() query: PlayerQuery,
  ): Promise<string> {
    return this.queries.player(this.queries.ladder(id, true), player, query.around ?? 5);
  }

  @Get(':player/history')
  @ApiOperation({ summary: "A player's rating changes, newest first, each with its why" })
  @ApiOkResponse({
    description: '{ entries: [{ eventId, before, after, delta, result, why, at }], nextCursor }',
  })
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
