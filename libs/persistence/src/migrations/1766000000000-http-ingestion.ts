import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * HTTP ingestion (ADR 34). `service_tokens`: game servers' bearer tokens, by the SHA-256 of the
 * whole token (never the token), each with the ladders it may use; several per service, so a
 * token is rotated by issuing the next and revoking the last, with no restart. `ingest_receipts`:
 * what `POST /v1/games` answered of each event id (sent, or refused and why) and the digest of
 * what was sent, so that a repeat is not sent twice and `GET /v1/events/:id` can tell a repeat
 * with other content. The index lets that route find a service's rejection of an id.
 */
export class HttpIngestion1766000000000 implements MigrationInterface {
  name = 'HttpIngestion1766000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE service_tokens (
        token_id     text        PRIMARY KEY,
        service      text        NOT NULL,
        ladders      text[]      NOT NULL,
        digest       bytea       NOT NULL UNIQUE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        expires_at   timestamptz,
        revoked_at   timestamptz,
        last_used_at timestamptz
      )`);
    await db.query(`
      CREATE TABLE ingest_receipts (
        event_id    text        PRIMARY KEY,
        service     text        NOT NULL,
        ladder      text,
        digest      bytea       NOT NULL,
        status      text        NOT NULL CHECK (status IN ('accepted', 'rejected')),
        code        text,
        detail      text,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      'CREATE INDEX rejected_messages_event_id ON rejected_messages (event_id) WHERE event_id IS NOT NULL',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX rejected_messages_event_id');
    await db.query('DROP TABLE ingest_receipts');
    await db.query('DROP TABLE service_tokens');
  }
}
