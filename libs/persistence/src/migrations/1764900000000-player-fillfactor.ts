import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every applied game rewrites its players' rows. With full pages a new row version has to go to
 * another page, which also adds an entry to the primary key's index: only about a fifth of the
 * updates in a backlog drain were HOT (heap-only). Pages filled to 70 % keep room for the new
 * version beside the old one, so most updates touch one page and no index. Applies to pages
 * written from now on (existing pages fill up as they are rewritten).
 */
export class PlayerFillfactor1764900000000 implements MigrationInterface {
  name = 'PlayerFillfactor1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE ladder_players SET (fillfactor = 70)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE ladder_players RESET (fillfactor)');
  }
}
