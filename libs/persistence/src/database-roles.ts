/**
 * Who may do what in PostgreSQL (ADR 40): one login role per service and one for the operators'
 * CLI, and an owner that owns the schema and every table and runs the migrations. `ranking
 * setup` makes the database match this file: the grants below and nothing else. Pure data; the
 * statements are made in database-grants.ts.
 */

/** The roles that log in, by what runs as them. */
export type LoginRole = 'rating' | 'maintenance' | 'leaderboard' | 'ops' | 'intake';

/** A table privilege; `UPDATE (a, b)` only on those columns. */
export type TablePrivilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE' | `UPDATE (${string})`;

/** The owner: owns the schema and every table, runs the migrations; nobody logs in as it. */
export const OWNER_ROLE = 'ranking_owner';

/**
 * Each login role's PostgreSQL name and the variable `ranking setup` reads its password from
 * (unset: a new role gets none, an existing one keeps its own).
 */
export const LOGIN_ROLES: Readonly<Record<LoginRole, { name: string; passwordVariable: string }>> =
  {
    rating: { name: 'ranking_rating', passwordVariable: 'DATABASE_RATING_PASSWORD' },
    maintenance: { name: 'ranking_maintenance', passwordVariable: 'DATABASE_MAINTENANCE_PASSWORD' },
    leaderboard: { name: 'ranking_leaderboard', passwordVariable: 'DATABASE_LEADERBOARD_PASSWORD' },
    ops: { name: 'ranking_ops', passwordVariable: 'DATABASE_OPS_PASSWORD' },
    intake: { name: 'ranking_intake', passwordVariable: 'DATABASE_INTAKE_PASSWORD' },
  };

const R = 'SELECT';
const A = 'INSERT';
const W = 'UPDATE';
const D = 'DELETE';

/**
 * Every table of the schema, and what each login role may do on it: no entry, nothing (the
 * owner may do everything). One line per table: a new table's grants are a new line, and a
 * table without a line is the owner's alone (`ranking setup` warns). A table named here that
 * does not exist yet is skipped. A role with INSERT on a table may also draw the ids of its
 * serial columns (USAGE on the sequences the table owns). SELECT ... FOR UPDATE needs UPDATE,
 * and an upsert (ON CONFLICT DO UPDATE) needs SELECT and UPDATE.
 */
export const TABLE_GRANTS: Readonly<
  Record<string, Readonly<Partial<Record<LoginRole, readonly TablePrivilege[]>>>>
> = {
  // Every service checks at start-up that no migration is pending (openServiceDataSource).
  schema_migrations: { rating: [R], maintenance: [R], leaderboard: [R], intake: [R] },
  // Append-only: the rating service appends; nobody rewrites it.
  event_store: { rating: [R, A], leaderboard: [R], ops: [R] },
  consumer_offsets: { rating: [R, A, W], maintenance: [R, A, W], ops: [R, A, D] },
  ladders: { rating: [R, A, W], leaderboard: [R], ops: [R, A, W] },
  ladder_players: { rating: [R, A, W], leaderboard: [R], ops: [R, A, W, D] },
  ladder_games: { rating: [R, A, W], ops: [R, A, D] },
  ladder_periods: { rating: [R, A], leaderboard: [R] },
  rating_history: { rating: [A], leaderboard: [R] },
  void_games: { rating: [A], leaderboard: [R], ops: [R] },
  rejected_messages: { rating: [A], maintenance: [A], leaderboard: [R], ops: [R] },
  daily_standings: { rating: [A], leaderboard: [R] },
  outbox: { rating: [R, A, W, D] },
  pending_annulments: { rating: [R, A, D] },
  ladder_snapshots: { rating: [R, A, W, D], leaderboard: [R], ops: [R] },
  ladder_snapshot_parts: { rating: [R, A], leaderboard: [R], ops: [R] },
  maintenance_clocks: { maintenance: [R, A, W], ops: [R, A, D] },
  disconnect_counters: { maintenance: [R, A, W], ops: [R, A, W, D] },
  disconnect_games: { maintenance: [R, A], ops: [A, D] },
  maintenance_outbox: { maintenance: [R, A, D], ops: [A] },
  redriven_dead_letters: { ops: [R, A, W] },
  // Tokens are issued and revoked by the operators; the API reads them and stamps their use.
  service_tokens: { leaderboard: [R, 'UPDATE (last_used_at)'], ops: [R, A, 'UPDATE (revoked_at)'] },
  // The API records and refreshes receipts, and deletes them past their retention (ADR 42).
  ingest_receipts: { leaderboard: [R, A, W, D] },
  // Game servers as producers (ADR 39): the operators keep them; the intake and the API read them.
  producers: { leaderboard: [R], ops: [R, A, W, D], intake: [R] },
};
