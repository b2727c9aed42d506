import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tournament of a game (context.match.tournament) as a column of its own, written with the
 * event. On a `json` payload the old partial index had PostgreSQL parse every finished game's
 * text to test its predicate, about a third of the event store's insert cost; a plain column
 * costs nothing to test.
 */
export class EventTournamentColumn1765200000000 implements MigrationInterface {
  name = 'EventTournamentColumn1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX event_store_tournament_games');
    await db.query('ALTER TABLE event_store ADD COLUMN tournament text');
    await db.query(`
      UPDATE event_store SET tournament = payload #>> '{context,match,tournament}'
      WHERE type = 'game.finished' AND (payload #>> '{context,match,tournament}') IS NOT NULL`);
    await db.query(`
      CREATE INDEX event_store_tournament_games ON event_store (tournament, ladder, seq)
      WHERE tournament IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX event_store_tournament_games');
    await db.query('ALTER TABLE event_store DROP COLUMN tournament');
    await db.query(`
      CREATE INDEX event_store_tournament_games
        ON event_store ((payload #>> '{context,match,tournament}'), ladder, seq)
        WHERE type = 'game.finished' AND (payload #>> '{context,match,tournament}') IS NOT NULL`);
  }
}
