import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ladder state the rating service folds into: players, game records (for corrections), closed
 * periods, the rating history, void and rejected events, daily standings, and the outbox.
 */
export class LadderState1764500000000 implements MigrationInterface {
  name = 'LadderState1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ladders (
        ladder    text   PRIMARY KEY,
        last_seq  bigint NOT NULL DEFAULT 0,
        accepted  bigint NOT NULL DEFAULT 0
      )`);
    await db.query(`
      CREATE TABLE ladder_players (
        ladder               text    NOT NULL,
        player               text    NOT NULL,
        rating               double precision NOT NULL,
        games                integer NOT NULL,
        wins                 integer NOT NULL,
        losses               integer NOT NULL,
        draws                integer NOT NULL,
        rated_games          integer NOT NULL,
        first_rated_at       bigint,
        week_games           jsonb   NOT NULL DEFAULT '[]',
        month_games          jsonb   NOT NULL DEFAULT '[]',
        disconnects          integer NOT NULL,
        clean_streak         integer NOT NULL,
        disconnect_penalties integer NOT NULL,
        level                integer NOT NULL,
        territory            boolean NOT NULL,
        captures             integer NOT NULL,
        day_captures         jsonb   NOT NULL DEFAULT '[]',
        PRIMARY KEY (ladder, player)
      )`);
    await db.query(
      'CREATE INDEX ladder_players_rating ON ladder_players (ladder, rating DESC, player)',
    );
    await db.query(`
      CREATE TABLE ladder_games (
        ladder  text NOT NULL,
        game_id text NOT NULL,
        record  text NOT NULL,
        PRIMARY KEY (ladder, game_id)
      )`);
    await db.query(`
      CREATE TABLE ladder_periods (
        ladder    text   NOT NULL,
        period    text   NOT NULL,
        period_key text  NOT NULL,
        seq       bigint NOT NULL,
        closed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (ladder, period, period_key)
      )`);
    await db.query(`
      CREATE TABLE rating_history (
        id        bigserial PRIMARY KEY,
        ladder    text   NOT NULL,
        player    text   NOT NULL,
        seq       bigint NOT NULL,
        event_id  text   NOT NULL,
        before    double precision NOT NULL,
        after     double precision NOT NULL,
        delta     double precision NOT NULL,
        result    text,
        why       jsonb  NOT NULL,
        at        timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      'CREATE INDEX rating_history_player ON rating_history (ladder, player, id DESC)',
    );
    await db.query(`
      CREATE TABLE void_games (
        ladder   text   NOT NULL,
        seq      bigint NOT NULL,
        event_id text   NOT NULL,
        reason   text   NOT NULL,
        PRIMARY KEY (ladder, seq)
      )`);
    await db.query(`
      CREATE TABLE rejected_messages (
        id          bigserial PRIMARY KEY,
        topic       text    NOT NULL,
        partition   integer NOT NULL,
        "offset"    bigint  NOT NULL,
        event_id    text,
        reason      text    NOT NULL,
        detail      text    NOT NULL,
        message_key bytea,
        value       bytea,
        received_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (topic, partition, "offset")
      )`);
    await db.query(`
      CREATE TABLE daily_standings (
        ladder     text    NOT NULL,
        period_key text    NOT NULL,
        player     text    NOT NULL,
        rating     double precision NOT NULL,
        games      integer NOT NULL,
        wins       integer NOT NULL,
        losses     integer NOT NULL,
        draws      integer NOT NULL,
        rated_games integer NOT NULL,
        level      integer NOT NULL,
        PRIMARY KEY (ladder, period_key, player)
      )`);
    await db.query(`
      CREATE TABLE outbox (
        id          bigserial PRIMARY KEY,
        topic       text  NOT NULL,
        message_key text,
        value       bytea NOT NULL,
        headers     jsonb NOT NULL DEFAULT '{}',
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'outbox',
      'daily_standings',
      'rejected_messages',
      'void_games',
      'rating_history',
      'ladder_periods',
      'ladder_games',
      'ladder_players',
      'ladders',
    ]) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}
