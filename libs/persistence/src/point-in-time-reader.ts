import type { StandingRow } from './standings-reader.js';
import type { Sql } from './sql.js';

/**
 * Where a ladder's history stood at an instant: its last `rating_history` row written by then
 * (`id`) and that row's instant. Two instants with the same cut see the same board.
 */
export interface HistoryCut {
  readonly id: number;
  readonly at: Date;
}

/** The board fields of a history row are null on rows written before they were added. */
interface RawAsOf {
  player: string;
  after: number;
  games: number | null;
  wins: number | null;
  losses: number | null;
  draws: number | null;
  rated_games: number | null;
  level: number | null;
}

/** The history as of an instant lacks the board fields of some players' rows. */
export class HistoryWithoutBoardFieldsError extends Error {
  override readonly name = 'HistoryWithoutBoardFieldsError';
  constructor(
    readonly ladder: string,
    readonly players: number,
  ) {
    super(
      `the rating history of ladder "${ladder}" as of this instant holds ${players} player(s) whose last row was written before history rows carried board fields (games, record, rated games, level): their standing then is not known`,
    );
  }
}

/**
 * The ladder's players as the live board showed them at an instant (ADR 20), read from
 * `rating_history`: every change of a board field writes a row with the player's fields after
 * it, and a transaction's rows carry its instant (`now()`, as its events' `recorded_at` do), so
 * a player's latest row by the cut is their standing then.
 */
export class PointInTimeReader {
  constructor(private readonly sql: Sql) {}

  /**
   * The ladder's last history row at or before `at`, or null when it had none (the instant is
   * before its first change). One descent of `rating_history_when`: a ladder's rows are written
   * in its log's order, so its instants rise with the ids, and the rows up to this id are
   * exactly those of the instants up to `at`. The rows of one instant are one transaction's,
   * written in log order: by seq, then id, is by id (the index's order).
   */
  async cut(ladder: string, at: Date): Promise<HistoryCut | null> {
    const rows = await this.sql.query<{ id: string; at: Date }>(
      `SELECT id, at FROM rating_history WHERE ladder = $1 AND at <= $2
       ORDER BY at DESC, seq DESC, id DESC LIMIT 1`,
      [ladder, at],
    );
    const row = rows[0];
    return row === undefined ? null : { id: Number(row.id), at: row.at };
  }

  /**
   * Every player who had played by the cut, as the board showed them (the live board holds the
   * players with games), in player order. One query: each player of the ladder joined to their
   * latest row up to the cut, one descent of `rating_history_player` each, which carries the
   * board fields (an index-only read). Walking the players in order keeps those descents moving
   * forward through the index, so a board reads it once rather than at random.
   */
  async standings(ladder: string, cut: number): Promise<StandingRow[]> {
    const rows = await this.sql.query<RawAsOf>(
      `SELECT p.player, h.after, h.games, h.wins, h.losses, h.draws, h.rated_games, h.level
       FROM ladder_players p CROSS JOIN LATERAL (
         SELECT after, games, wins, losses, draws, rated_games, level FROM rating_history r
         WHERE r.ladder = p.ladder AND r.player = p.player AND r.id <= $2
         ORDER BY r.id DESC LIMIT 1) h
       WHERE p.ladder = $1 AND (h.games IS NULL OR h.games > 0)
       ORDER BY p.player`,
      [ladder, cut],
    );
    const out: StandingRow[] = [];
    let unknown = 0;
    for (const r of rows) {
      if (r.games === null) {
        unknown++;
        continue;
      }
      out.push({
        player: r.player,
        rating: r.after,
        games: r.games,
        wins: r.wins ?? 0,
        losses: r.losses ?? 0,
        draws: r.draws ?? 0,
        ratedGames: r.rated_games ?? 0,
        level: r.level ?? 0,
      });
    }
    if (unknown > 0) throw new HistoryWithoutBoardFieldsError(ladder, unknown);
    return out;
  }

  /** Whether the player has ever played on the ladder (has a live row), whatever the instant. */
  async known(ladder: string, player: string): Promise<boolean> {
    const rows = await this.sql.query(
      'SELECT 1 FROM ladder_players WHERE ladder = $1 AND player = $2',
      [ladder, player],
    );
    return rows.length > 0;
  }
}
