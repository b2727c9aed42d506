import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `rating_history_event`: the rows one event wrote, by its place in the ladder's log. A
 * player's history page names who each game was against and how it moved them; without it
 * those rows are found by scanning the ladder. A ladder's events are applied in log order, so
 * each insertion lands at the right edge of its ladder's range.
 */
export class HistoryByEvent1765600000000 implements MigrationInterface {
  name = 'HistoryByEvent1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX rating_history_event ON rating_history (ladder, seq)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX rating_history_event');
  }
}
