import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `ladders.last_message_seq`: the seq of the ladder's last `ranking.rating-changes` message,
 * which the next message names as its `previousSeq` (ADR 25). Existing ladders start from their
 * log position: no message can be newer, so a reader may see a lost message where there was
 * none (and read the ladder from PostgreSQL once), never miss a lost one.
 */
export class LastMessageSeq1765750000000 implements MigrationInterface {
  name = 'LastMessageSeq1765750000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE ladders ADD COLUMN last_message_seq bigint NOT NULL DEFAULT 0');
    await db.query('UPDATE ladders SET last_message_seq = last_seq');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE ladders DROP COLUMN last_message_seq');
  }
}
