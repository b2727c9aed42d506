import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which consumer set a message aside. The rating and maintenance services read the same topic
 * and each may find a message it cannot apply (`unprocessable`); each keeps its own row, and
 * the exported rejections are the rating service's alone. The maintenance outbox gains headers
 * for the dead letters it publishes.
 */
export class UnprocessableMessages1765300000000 implements MigrationInterface {
  name = 'UnprocessableMessages1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE rejected_messages ADD COLUMN consumer text NOT NULL DEFAULT 'rating-service'`,
    );
    await db.query(
      'ALTER TABLE rejected_messages DROP CONSTRAINT rejected_messages_topic_partition_offset_key',
    );
    await db.query(
      'ALTER TABLE rejected_messages ADD UNIQUE (consumer, topic, partition, "offset")',
    );
    await db.query('ALTER TABLE maintenance_outbox ADD COLUMN headers json');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE maintenance_outbox DROP COLUMN headers');
    await db.query(`DELETE FROM rejected_messages WHERE consumer <> 'rating-service'`);
    await db.query(
      'ALTER TABLE rejected_messages DROP CONSTRAINT rejected_messages_consumer_topic_partition_offset_key',
    );
    await db.query('ALTER TABLE rejected_messages DROP COLUMN consumer');
    await db.query('ALTER TABLE rejected_messages ADD UNIQUE (topic, partition, "offset")');
  }
}
