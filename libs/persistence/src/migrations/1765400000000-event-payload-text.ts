import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event payloads as `text`. An accepted event may carry fields the contract does not name, and
 * their strings may hold what PostgreSQL's `json` input refuses or cannot unpack (an unpaired
 * surrogate escape, `\u0000`): the offline replay accepts such an event, so the store must keep
 * it, and text keeps any JSON text as written (it is also the cheapest to insert). The one
 * lookup by payload field, a correction's game, becomes a column of its own.
 */
export class EventPayloadText1765400000000 implements MigrationInterface {
  name = 'EventPayloadText1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX event_store_corrections');
    await db.query('ALTER TABLE event_store ADD COLUMN game_id text');
    await db.query(`
      UPDATE event_store SET game_id = payload ->> 'gameId'
      WHERE type IN ('game.finished', 'game.corrected')`);
    await db.query('ALTER TABLE event_store ALTER COLUMN payload TYPE text USING payload::text');
    await db.query(`
      CREATE INDEX event_store_corrections ON event_store (ladder, game_id, seq)
      WHERE type = 'game.corrected'`);
  }

  /** Fails on a payload that `json` refuses: such events cannot go back to the old schema. */
  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX event_store_corrections');
    await db.query('ALTER TABLE event_store ALTER COLUMN payload TYPE json USING payload::json');
    await db.query('ALTER TABLE event_store DROP COLUMN game_id');
    await db.query(`
      CREATE INDEX event_store_corrections ON event_store (ladder, (payload ->> 'gameId'), seq)
      WHERE type = 'game.corrected'`);
  }
}
