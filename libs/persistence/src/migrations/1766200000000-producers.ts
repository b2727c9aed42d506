import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Producers (ADR 39, CONTRACT.md "Transport"): each game server a named producer with the
 * ladders it may write. The intake reads them to know whose topic is whose; the API to know a
 * token's producer. A token belongs to a producer (`service_tokens.producer`; a producer removed
 * leaves its revoked tokens for the record), and an API receipt is its producer's.
 * `backfill`: the producer may also write the ladder log (the simulator's history, granted only
 * by `ranking setup --with-simulator`).
 */
export class Producers1766200000000 implements MigrationInterface {
  name = 'Producers1766200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE producers (
        name       text        PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
        ladders    text[]      NOT NULL,
        backfill   boolean     NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      'ALTER TABLE service_tokens ADD COLUMN producer text REFERENCES producers (name) ON DELETE SET NULL',
    );
    await db.query('ALTER TABLE ingest_receipts RENAME COLUMN service TO producer');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE ingest_receipts RENAME COLUMN producer TO service');
    await db.query('ALTER TABLE service_tokens DROP COLUMN producer');
    await db.query('DROP TABLE producers');
  }
}
