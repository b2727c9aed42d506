import type { Sql } from './sql.js';

/** A player's skill estimate as `ladder_players` holds it. */
export interface StoredSkill {
  readonly player: string;
  /** Null until the player's first counted game: the estimate is then the prior. */
  readonly mu: number | null;
  readonly sigma: number | null;
  /** The finish of the last counted game (epoch ms), null before the first. */
  readonly lastPlayedAt: number | null;
}

/** An event of the store: its place in the ladder's log and its JSON text. */
export interface StoredEventText {
  readonly seq: number;
  readonly payload: string;
}

interface RawSkill {
  player: string;
  skill_mu: number | null;
  skill_sigma: number | null;
  last_played_at: string | null;
}

const COLUMNS = 'player, skill_mu, skill_sigma, last_played_at';

const toSkill = (r: RawSkill): StoredSkill => ({
  player: r.player,
  mu: r.skill_mu,
  sigma: r.skill_sigma,
  lastPlayedAt: r.last_played_at === null ? null : Number(r.last_played_at),
});

/**
 * What the matchmaking API reads: players' estimates (by primary key, or a whole ladder's), the
 * ladders' log positions, and the events since a position (whose players' estimates may have
 * moved).
 */
export class SkillReader {
  constructor(private readonly sql: Sql) {}

  /** The players' estimates; players the ladder does not know are absent. */
  async players(ladder: string, players: readonly string[]): Promise<StoredSkill[]> {
    if (players.length === 0) return [];
    const rows = await this.sql.query<RawSkill>(
      `SELECT ${COLUMNS} FROM ladder_players WHERE ladder = $1 AND player = ANY($2::text[])`,
      [ladder, players],
    );
    return rows.map(toSkill);
  }

  /** Every player of the ladder (a scan of its rows: nothing indexes the estimates). */
  async ladderPlayers(ladder: string): Promise<StoredSkill[]> {
    const rows = await this.sql.query<RawSkill>(
      `SELECT ${COLUMNS} FROM ladder_players WHERE ladder = $1`,
      [ladder],
    );
    return rows.map(toSkill);
  }

  /**
   * Each ladder's position in its log (`ladders.last_seq`, written in the transaction that
   * applies the events); ladders that never accepted an event are absent.
   */
  async logPositions(ladders: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.sql.query<{ ladder: string; last_seq: string }>(
      'SELECT ladder, last_seq FROM ladders WHERE ladder = ANY($1::text[])',
      [ladders],
    );
    return new Map(rows.map((r) => [r.ladder, Number(r.last_seq)]));
  }

  /** The ladder's events after position `after` up to `upTo`, in log order. */
  async eventsBetween(ladder: string, after: number, upTo: number): Promise<StoredEventText[]> {
    const rows = await this.sql.query<{ seq: string; payload: string }>(
      `SELECT seq, payload FROM event_store WHERE ladder = $1 AND seq > $2 AND seq <= $3
       ORDER BY seq`,
      [ladder, after, upTo],
    );
    return rows.map((r) => ({ seq: Number(r.seq), payload: r.payload }));
  }
}
