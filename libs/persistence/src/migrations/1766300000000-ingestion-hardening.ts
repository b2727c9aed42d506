import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * HTTP ingestion hardened (ADR 42). `ingest_receipts_received_at`: the retention purge finds
 * the oldest receipts in one descent and deletes them a bounded batch at a time, instead of
 * scanning the table. `service_tokens.issued_by`: the operator who issued a token (null for
 * tokens issued before it was recorded).
 */
export class IngestionHardening1766300000000 implements MigrationInterface {
  name = 'IngestionHardening1766300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX ingest_receipts_received_at ON ingest_receipts (received_at)');
    await db.query('ALTER TABLE service_tokens ADD COLUMN issued_by text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE service_tokens DROP COLUMN issued_by');
    await db.query('DROP INDEX ingest_receipts_received_at');
  }
}
