import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes that find one tournament's games in the event store (context.match.tournament) and
 * the corrections of given games, without scanning the store. Both are partial: only
 * tournament games and corrections are indexed.
 */
export class TournamentGames1764800000000 implements MigrationInterface {
  name = 'TournamentGames1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE INDEX event_store_tournament_games
        ON event_store ((payload #>> '{context,match,tournament}'), ladder, seq)
        WHERE type = 'game.finished' AND (payload #>> '{context,match,tournament}') IS NOT NULL`);
    await db.query(`
      CREATE INDEX event_store_corrections
        ON event_store (ladder, (payload ->> 'gameId'), seq)
        WHERE type = 'game.corrected'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX event_store_corrections');
    await db.query('DROP INDEX event_store_tournament_games');
  }
}
