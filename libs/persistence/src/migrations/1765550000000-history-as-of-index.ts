import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A board as of an instant (ADR 20) starts from the ladder's last history row written by then.
 * Without this index that row is found by scanning the ladder's newer rows, and each player's
 * row as of the instant by skipping their newer rows one heap fetch at a time (about 2 s for a
 * 100,000-player ladder with ten rows each, growing with the rows after the instant); with it,
 * one descent finds the cut's id and every player's row is one descent of
 * `rating_history_player` below it. Rows are appended with the ladder's instants rising, so
 * each insertion lands at the right edge of its ladder's range (about 1 µs a row, 47 bytes).
 */
export class HistoryAsOfIndex1765550000000 implements MigrationInterface {
  name = 'HistoryAsOfIndex1765550000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX rating_history_at ON rating_history (ladder, at, id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX rating_history_at');
  }
}
