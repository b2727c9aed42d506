import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One outbox row per transaction instead of one per message: a batch of thousands of events
 * otherwise costs thousands of inserts, claims and deletes. A row carries either one raw
 * message (`value`) or a `bundle`, a JSON array of messages kept in order (json, not jsonb, so
 * the text is kept as written).
 */
export class OutboxBundles1764550000000 implements MigrationInterface {
  name = 'OutboxBundles1764550000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE outbox ALTER COLUMN value DROP NOT NULL');
    await db.query('ALTER TABLE outbox ALTER COLUMN topic DROP NOT NULL');
    await db.query('ALTER TABLE outbox ADD COLUMN bundle json');
    await db.query(
      'ALTER TABLE outbox ADD CONSTRAINT outbox_value_or_bundle CHECK ((value IS NULL) <> (bundle IS NULL))',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DELETE FROM outbox WHERE bundle IS NOT NULL');
    await db.query('ALTER TABLE outbox DROP CONSTRAINT outbox_value_or_bundle');
    await db.query('ALTER TABLE outbox DROP COLUMN bundle');
    await db.query('ALTER TABLE outbox ALTER COLUMN topic SET NOT NULL');
    await db.query('ALTER TABLE outbox ALTER COLUMN value SET NOT NULL');
  }
}
