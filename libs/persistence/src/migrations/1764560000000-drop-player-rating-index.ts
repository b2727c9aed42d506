import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every rated game and every close rewrites players' ratings, and an index on rating turned
 * each of those updates into a random write in a second large index (a weekly close over a
 * million players spent most of its time there). Nothing reads ladder_players in rating
 * order: the leaderboards are built from the frozen daily standings and kept in Redis.
 */
export class DropPlayerRatingIndex1764560000000 implements MigrationInterface {
  name = 'DropPlayerRatingIndex1764560000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX IF EXISTS ladder_players_rating');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'CREATE INDEX ladder_players_rating ON ladder_players (ladder, rating DESC, player)',
    );
  }
}
