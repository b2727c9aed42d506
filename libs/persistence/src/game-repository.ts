import type { GameRow } from '@ranking/rating';
import { appendRows } from './appended-rows.js';
import type { Sql } from './sql.js';

/** A ladder's game records (encoded) with their saved estimates, for corrections. */
export class GameRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Encoded game records (see the rating core's game-record-codec) by game id, with their saved
   * skill estimates (skill-record-codec; null for a game stored before the estimate existed).
   */
  async loadGames(
    ladder: string,
    gameIds: readonly string[],
  ): Promise<Map<string, { record: string; skill: string | null }>> {
    if (gameIds.length === 0) return new Map();
    const rows = await this.sql.query<{ game_id: string; record: string; skill: string | null }>(
      'SELECT game_id, record, skill FROM ladder_games WHERE ladder = $1 AND game_id = ANY($2::text[])',
      [ladder, gameIds],
    );
    return new Map(rows.map((r) => [r.game_id, { record: r.record, skill: r.skill }]));
  }

  /** Games of several ladders in one statement (a null estimate leaves the stored one). */
  async upsertGamesOf(byLadder: readonly (readonly [string, readonly GameRow[]])[]): Promise<void> {
    const rows = byLadder.flatMap(([l, games]) => games.map(([g, r, s]) => ({ l, g, r, s })));
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO ladder_games (ladder, game_id, record, skill)
       SELECT r.l, r.g, r.r, r.s FROM json_to_recordset($1::json) AS r(l text, g text, r text, s text)
       ON CONFLICT (ladder, game_id) DO UPDATE
       SET record = EXCLUDED.record, skill = COALESCE(EXCLUDED.skill, ladder_games.skill)`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Inserts games the ladder does not hold: what a rebuild writes after `deleteLadderState` in
   * the same transaction. No conflict handling, so a plain insert (about a fifth cheaper for
   * PostgreSQL than the upsert).
   */
  async insertGames(ladder: string, games: readonly GameRow[]): Promise<void> {
    await appendRows(
      this.sql,
      'ladder_games',
      [
        ['ladder', 'text'],
        ['game_id', 'text'],
        ['record', 'text'],
        ['skill', 'text'],
      ],
      games.map(([game, record, skill]) => [ladder, game, record, skill]),
    );
  }

  /** Deletes a ladder's players and game records (a rebuild writes them anew in the same transaction). */
  /** Deletes a ladder's game records (a re-fold writes them all again with `insertGames`). */
  async deleteGames(ladder: string): Promise<void> {
    await this.sql.query('DELETE FROM ladder_games WHERE ladder = $1', [ladder]);
  }

  async deleteLadderState(ladder: string): Promise<void> {
    await this.sql.query('DELETE FROM ladder_players WHERE ladder = $1', [ladder]);
    await this.sql.query('DELETE FROM ladder_games WHERE ladder = $1', [ladder]);
  }
}
