import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The event store (every accepted event, in log order per ladder) and consumer checkpoints. */
export class EventStore1764400000000 implements MigrationInterface {
  name = 'EventStore1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE event_store (
        ladder      text        NOT NULL,
        seq         bigint      NOT NULL,
        event_id    text        NOT NULL,
        type        text        NOT NULL,
        payload     jsonb       NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (ladder, seq),
        CONSTRAINT event_store_event_id_key UNIQUE (event_id)
      )`);
    await db.query(`
      CREATE TABLE consumer_offsets (
        consumer    text    NOT NULL,
        topic       text    NOT NULL,
        partition   integer NOT NULL,
        next_offset bigint  NOT NULL,
        PRIMARY KEY (consumer, topic, partition)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE consumer_offsets');
    await db.query('DROP TABLE event_store');
  }
}
