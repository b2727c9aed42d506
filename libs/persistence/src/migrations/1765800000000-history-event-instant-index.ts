import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One index where a history row kept two besides its player's: `rating_history_when`
 * (ladder, at, seq, id) replaces `rating_history_at` (ladder, at, id) and `rating_history_event`
 * (ladder, seq). It serves both of their reads:
 * - a board's cut (ADR 20): the ladder's last row by an instant, one backward descent. A
 *   ladder's rows of one instant are one transaction's, written in log order, so ordering them
 *   by seq, then id, is ordering them by id.
 * - a history page's other players of a game: the rows of one event are one transaction's, so
 *   they share its instant, and (ladder, at, seq) finds exactly them.
 * Each history row writes three index entries instead of four (a drain writes about two rows
 * an event; ADR 28). Only indexes change: the rows are untouched.
 */
export class HistoryEventInstantIndex1765800000000 implements MigrationInterface {
  name = 'HistoryEventInstantIndex1765800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX rating_history_when ON rating_history (ladder, at, seq, id)');
    await db.query('DROP INDEX rating_history_at');
    await db.query('DROP INDEX rating_history_event');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX rating_history_event ON rating_history (ladder, seq)');
    await db.query('CREATE INDEX rating_history_at ON rating_history (ladder, at, id)');
    await db.query('DROP INDEX rating_history_when');
  }
}
