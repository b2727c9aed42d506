import type { BoardStanding } from '@ranking/contracts';
import type { PlayerChange, PlayerState, Skill } from '@ranking/rating';
import { type AppendColumn, appendRows } from './appended-rows.js';
import type { Sql } from './sql.js';

const HISTORY_COLUMNS: readonly AppendColumn[] = [
  ['ladder', 'text'],
  ['player', 'text'],
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['before', 'float8'],
  ['after', 'float8'],
  ['delta', 'float8'],
  ['result', 'text'],
  ['why', 'json'],
  ['games', 'int4'],
  ['wins', 'int4'],
  ['losses', 'int4'],
  ['draws', 'int4'],
  ['rated_games', 'int4'],
  ['level', 'int4'],
  ['skill_mu_before', 'float8'],
  ['skill_sigma_before', 'float8'],
  ['skill_mu_after', 'float8'],
  ['skill_sigma_after', 'float8'],
];

/**
 * The board fields of a player's state (the contract's `BoardStanding`: what a rating-changes
 * message lists and a history row keeps), copied (a fold changes its records in place).
 */
export const boardStandingOf = (p: PlayerState): BoardStanding => ({
  games: p.games,
  wins: p.wins,
  losses: p.losses,
  draws: p.draws,
  ratedGames: p.ratedGames,
  level: p.level,
});

export interface HistoryRow {
  readonly ladder: string;
  readonly seq: number;
  readonly eventId: string;
  readonly change: PlayerChange;
  /** The player after the change: the latest row by an instant is the player as the board showed them then. */
  readonly standing: BoardStanding;
  /** How the event moved the player's skill estimate (null: it did not). */
  readonly skill: { readonly before: Skill; readonly after: Skill } | null;
}

/** The rating history: one row per player an event moved. */
export class HistoryRepository {
  constructor(private readonly sql: Sql) {}

  async appendHistory(rows: readonly HistoryRow[]): Promise<void> {
    await appendRows(
      this.sql,
      'rating_history',
      HISTORY_COLUMNS,
      rows.map(({ ladder, seq, eventId, change, standing, skill }) => [
        ladder,
        change.player,
        seq,
        eventId,
        change.before,
        change.after,
        change.delta,
        change.result,
        JSON.stringify(change.why),
        standing.games,
        standing.wins,
        standing.losses,
        standing.draws,
        standing.ratedGames,
        standing.level,
        skill?.before.mu ?? null,
        skill?.before.sigma ?? null,
        skill?.after.mu ?? null,
        skill?.after.sigma ?? null,
      ]),
    );
  }
}
