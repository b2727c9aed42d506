import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents the database only stores and hands back (event payloads, the "why" of a rating
 * change, a player's period counts) as `json`, not `jsonb`: PostgreSQL then only checks the
 * text instead of building its binary form on every insert, which was about half of its CPU in
 * a backlog drain (an event row and two history rows per game). The two lookups by payload
 * field (`->>`, `#>>`) work on `json` alike; their indexes are rebuilt on the new type.
 */
export class JsonDocuments1765000000000 implements MigrationInterface {
  name = 'JsonDocuments1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await this.retype(db, 'json');
  }

  async down(db: QueryRunner): Promise<void> {
    await this.retype(db, 'jsonb');
  }

  private async retype(db: QueryRunner, type: 'json' | 'jsonb'): Promise<void> {
    await db.query('DROP INDEX event_store_tournament_games');
    await db.query('DROP INDEX event_store_corrections');
    await db.query(
      `ALTER TABLE event_store ALTER COLUMN payload TYPE ${type} USING payload::${type}`,
    );
    await db.query(`ALTER TABLE rating_history ALTER COLUMN why TYPE ${type} USING why::${type}`);
    await db.query(`
      ALTER TABLE ladder_players
        ALTER COLUMN week_games TYPE ${type} USING week_games::${type},
        ALTER COLUMN month_games TYPE ${type} USING month_games::${type},
        ALTER COLUMN day_captures TYPE ${type} USING day_captures::${type}`);
    await db.query(`
      CREATE INDEX event_store_tournament_games
        ON event_store ((payload #>> '{context,match,tournament}'), ladder, seq)
        WHERE type = 'game.finished' AND (payload #>> '{context,match,tournament}') IS NOT NULL`);
    await db.query(`
      CREATE INDEX event_store_corrections
        ON event_store (ladder, (payload ->> 'gameId'), seq)
        WHERE type = 'game.corrected'`);
  }
}
