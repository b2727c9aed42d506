import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { HistoryWithoutBoardFieldsError } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { rowJson, rowsJson } from '../boards/board-row.js';
import { encodeCursor, type PageCursor } from '../boards/page-cursor.js';
import { type BoardAsOf, PointInTimeBoards } from '../boards/point-in-time-boards.js';
import type { BoardPart } from '../boards/point-in-time-board.js';
import { rankSlice } from '../boards/ranked-page.js';

/**
 * The API's answers as of an instant (`?at=`, ADR 20): the live board's page and player answers
 * as they were then, written as the live ones are (the same rows, ranks and cursors), marked
 * `live: false` with the instant asked and the instant of the ladder's last change by then.
 */
@Injectable()
export class PointInTimeQueries {
  constructor(private readonly boards: PointInTimeBoards) {}

  /** A page of the live board as of `at` (empty before the ladder's first change). */
  async leaderboard(
    ladder: LadderConfig,
    at: Date,
    cursor: PageCursor | null,
    limit: number,
    position = 0,
  ): Promise<Buffer> {
    const asOf = await this.asOf(ladder, at);
    const slice = asOf.board.page(cursor, limit, position);
    const last = slice.items[slice.items.length - 1];
    const more = last !== undefined && slice.start + slice.items.length < slice.total;
    const next = more ? encodeCursor({ member: last.member, score: last.score }) : null;
    const head = JSON.stringify({ ladder: ladder.id, ...view(at, asOf, slice) }).slice(0, -1);
    return Buffer.from(
      `${head},"from":${slice.start + 1},"rows":${rowsJson(rankSlice(slice), ladder)},"nextCursor":${JSON.stringify(next)}}`,
    );
  }

  /**
   * A player as of `at`: their row, whether ranked, and their rank and neighbours on the board
   * then. A player who has played on the ladder but had not by `at` gets `played: false`; one
   * who never played there, a 404 as from the live answer.
   */
  async player(ladder: LadderConfig, player: string, at: Date, around: number): Promise<string> {
    const asOf = await this.asOf(ladder, at);
    const { data, index, board } = asOf.board.member(player, around);
    if (data === null && !(await this.boards.known(ladder, player)))
      throw new NotFoundException(`player "${player}" has no games on ladder "${ladder.id}"`);
    const ranked = rankSlice(board);
    const rank = index === null ? null : (ranked.find((r) => r.member === player)?.rank ?? null);
    const side = JSON.stringify({ ...view(at, asOf, board), rank }).slice(0, -1);
    const live = `${side},"around":${rowsJson(ranked, ladder)}}`;
    const head = `{"ladder":${JSON.stringify(ladder.id)},"at":${JSON.stringify(at.toISOString())}`;
    if (data === null)
      return `${head},"player":${JSON.stringify(player)},"played":false,"ranked":false,"live":${live}}`;
    const row = rowJson(null, player, data, ladder).slice(1, -1);
    return `${head},${row},"played":true,"ranked":${index !== null},"live":${live}}`;
  }

  private async asOf(ladder: LadderConfig, at: Date): Promise<BoardAsOf> {
    try {
      return await this.boards.asOf(ladder, at);
    } catch (error) {
      if (error instanceof HistoryWithoutBoardFieldsError)
        throw new ConflictException(error.message);
      throw error;
    }
  }
}

/** The board's description, as the live board's (`view: 'live'`) but of a past instant. */
const view = (at: Date, asOf: BoardAsOf, part: BoardPart) => ({
  view: 'live' as const,
  live: false,
  at: at.toISOString(),
  updatedAt: asOf.cut === null ? null : asOf.cut.at.toISOString(),
  total: part.total,
});
