import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a board as of an instant reads (ADR 20):
 * - `rating_history_at`: the ladder's last history row by an instant (its *cut*) in one
 *   descent. Without it that row is found by scanning the ladder's newer rows, and each player's
 *   row as of the instant by skipping their newer rows one heap fetch at a time. A ladder's rows
 *   are appended with its instants rising, so each insertion lands at the right edge of its
 *   ladder's range.
 * - `rating_history_player` (the history's pages per player) now carries the board fields, so
 *   each player's latest row up to the cut is an index-only read: with the players walked in
 *   order, the reads of a whole board go through the index once instead of fetching one random
 *   heap page per player (about half the time for 100,000 players). The key, and so every
 *   query using it, is unchanged; its entries are wider.
 */
export class HistoryAsOfIndex1765550000000 implements MigrationInterface {
  name = 'HistoryAsOfIndex1765550000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX rating_history_at ON rating_history (ladder, at, id)');
    await db.query('DROP INDEX rating_history_player');
    await db.query(`
      CREATE INDEX rating_history_player ON rating_history (ladder, player, id DESC)
        INCLUDE (after, games, wins, losses, draws, rated_games, level)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX rating_history_player');
    await db.query(
      'CREATE INDEX rating_history_player ON rating_history (ladder, player, id DESC)',
    );
    await db.query('DROP INDEX rating_history_at');
  }
}
