import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The maintenance service's state: each ladder's clock (the next open window per period),
 * the disconnect counters, the games already counted (a repeated id counts once), and its own
 * outbox of decided events. Its checkpoints share `consumer_offsets` under their own name.
 */
export class Maintenance1764600000000 implements MigrationInterface {
  name = 'Maintenance1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE maintenance_clocks (
        ladder     text   NOT NULL,
        period     text   NOT NULL,
        period_key text   NOT NULL,
        closes_at  bigint NOT NULL,
        PRIMARY KEY (ladder, period)
      )`);
    await db.query(`
      CREATE TABLE disconnect_counters (
        ladder    text    NOT NULL,
        player    text    NOT NULL,
        count     integer NOT NULL,
        streak    integer NOT NULL,
        penalties integer NOT NULL,
        PRIMARY KEY (ladder, player)
      )`);
    await db.query(`
      CREATE TABLE disconnect_games (
        event_id text PRIMARY KEY,
        ladder   text NOT NULL
      )`);
    await db.query(`
      CREATE TABLE maintenance_outbox (
        id          bigserial PRIMARY KEY,
        topic       text  NOT NULL,
        message_key text  NOT NULL,
        value       bytea NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'maintenance_outbox',
      'disconnect_games',
      'disconnect_counters',
      'maintenance_clocks',
    ])
      await db.query(`DROP TABLE ${table}`);
  }
}
