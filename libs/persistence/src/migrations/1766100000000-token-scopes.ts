import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a service token may do (ADR 35): `ingest` (POST /v1/games, GET /v1/events/:id) or
 * `review` (the operators' integrity routes and page). Tokens issued before could only ingest.
 */
export class TokenScopes1766100000000 implements MigrationInterface {
  name = 'TokenScopes1766100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE service_tokens ADD COLUMN scopes text[] NOT NULL DEFAULT '{ingest}'
         CHECK (scopes <@ ARRAY['ingest', 'review']::text[] AND cardinality(scopes) > 0)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE service_tokens DROP COLUMN scopes');
  }
}
