import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which dead letters `ranking redrive` sent again (ADR 31), so that a second run does not send
 * them twice unless asked. A dead letter is named by where it lies on the dead-letter topic:
 * that topic is the one place that holds every consumer's (the intake keeps no table), and its
 * messages never change. The row also says where the copy went, for the report and the runbook.
 */
export class RedrivenDeadLetters1765900000000 implements MigrationInterface {
  name = 'RedrivenDeadLetters1765900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE redriven_dead_letters (
        topic          text        NOT NULL,
        partition      integer     NOT NULL,
        "offset"       bigint      NOT NULL,
        event_id       text,
        reason         text        NOT NULL,
        rejected_by    text,
        sent_topic     text        NOT NULL,
        sent_partition integer     NOT NULL,
        sent_offset    bigint      NOT NULL,
        redriven_at    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (topic, partition, "offset")
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE redriven_dead_letters');
  }
}
