import type { Sql } from './sql.js';

/** A player's standing as a board shows it (frozen at a daily close, or live). */
export interface StandingRow {
  readonly player: string;
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly ratedGames: number;
  readonly level: number;
  /**
   * The skill estimate, on live rows only (the frozen standings keep none): null before the
   * player's first counted game.
   */
  readonly skill?: { readonly mu: number; readonly sigma: number } | null;
}

interface RawStanding {
  player: string;
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  rated_games: number;
  level: number;
  skill_mu?: number | null;
  skill_sigma?: number | null;
}

const COLUMNS = 'player, rating, games, wins, losses, draws, rated_games, level';
const LIVE_COLUMNS = `${COLUMNS}, skill_mu, skill_sigma`;

const toRow = (r: RawStanding): StandingRow => ({
  player: r.player,
  rating: r.rating,
  games: r.games,
  wins: r.wins,
  losses: r.losses,
  draws: r.draws,
  ratedGames: r.rated_games,
  level: r.level,
  // The two columns are written together: both null, or both numbers.
  ...(r.skill_mu === undefined
    ? {}
    : { skill: r.skill_mu === null ? null : { mu: r.skill_mu, sigma: r.skill_sigma! } }),
});

/** What the leaderboards load from PostgreSQL: the frozen daily standings and the live ladder. */
export class StandingsReader {
  constructor(private readonly sql: Sql) {}

  /**
   * The ladder's position in its log (`ladders.last_seq`, 0 before its first event): every
   * event up to it is in the rows read from now on (written in the transaction that moved it).
   */
  async ladderPosition(ladder: string): Promise<number> {
    const rows = await this.sql.query<{ last_seq: string }>(
      'SELECT last_seq FROM ladders WHERE ladder = $1',
      [ladder],
    );
    return Number(rows[0]?.last_seq ?? 0);
  }

  /** Keys of the ladder's applied daily closes, newest first. */
  async dailyCloses(ladder: string, limit: number): Promise<string[]> {
    const rows = await this.sql.query<{ period_key: string }>(
      `SELECT period_key FROM ladder_periods WHERE ladder = $1 AND period = 'daily'
       ORDER BY period_key DESC LIMIT $2`,
      [ladder, limit],
    );
    return rows.map((r) => r.period_key);
  }

  /** Whether the daily close of this key was applied (its standings are frozen). */
  async dailyClosed(ladder: string, key: string): Promise<boolean> {
    const rows = await this.sql.query(
      `SELECT 1 FROM ladder_periods WHERE ladder = $1 AND period = 'daily' AND period_key = $2`,
      [ladder, key],
    );
    return rows.length > 0;
  }

  /** A page (in player order) of the standings frozen at a daily close. */
  async dailyPage(
    ladder: string,
    key: string,
    after: string | null,
    limit: number,
  ): Promise<StandingRow[]> {
    const rows = await this.sql.query<RawStanding>(
      `SELECT ${COLUMNS} FROM daily_standings
       WHERE ladder = $1 AND period_key = $2 AND ($3::text IS NULL OR player > $3)
       ORDER BY player LIMIT $4`,
      [ladder, key, after, limit],
    );
    return rows.map(toRow);
  }

  /**
   * A page (in player order) of the ladder's live players who played at least once, with their
   * skill estimates.
   */
  async livePage(ladder: string, after: string | null, limit: number): Promise<StandingRow[]> {
    const rows = await this.sql.query<RawStanding>(
      `SELECT ${LIVE_COLUMNS} FROM ladder_players
       WHERE ladder = $1 AND games > 0 AND ($2::text IS NULL OR player > $2)
       ORDER BY player LIMIT $3`,
      [ladder, after, limit],
    );
    return rows.map(toRow);
  }

  /**
   * Live players (who played at least once) whose id starts with a prefix, in id order. The range
   * on the primary key bounds the scan under a code-point collation (C, C.UTF-8); starts_with
   * keeps the answer right under any other.
   */
  async livePlayersByPrefix(ladder: string, prefix: string, limit: number): Promise<StandingRow[]> {
    const rows = await this.sql.query<RawStanding>(
      `SELECT ${LIVE_COLUMNS} FROM ladder_players
       WHERE ladder = $1 AND player >= $2 AND player < $2 || chr(1114111)
         AND starts_with(player, $2) AND games > 0
       ORDER BY player LIMIT $3`,
      [ladder, prefix, limit],
    );
    return rows.map(toRow);
  }
}
