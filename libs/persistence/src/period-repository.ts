import type { Sql } from './sql.js';

/** Closed periods and the standings frozen at each daily close. */
export class PeriodRepository {
  constructor(private readonly sql: Sql) {}

  /** Closed periods of a ladder among the given `period:key` ids. */
  async closedPeriods(ladder: string): Promise<Set<string>> {
    const rows = await this.sql.query<{ id: string }>(
      "SELECT period || ':' || period_key AS id FROM ladder_periods WHERE ladder = $1",
      [ladder],
    );
    return new Set(rows.map((r) => r.id));
  }

  async markClosed(ladder: string, period: string, key: string, seq: number): Promise<void> {
    await this.sql.query(
      'INSERT INTO ladder_periods (ladder, period, period_key, seq) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [ladder, period, key, seq],
    );
  }

  /** Freezes the ladder's standings as of a daily close (what the 06:00 board shows). */
  async freezeDailyStandings(ladder: string, key: string): Promise<void> {
    await this.sql.query(
      `INSERT INTO daily_standings (ladder, period_key, player, rating, games, wins, losses, draws, rated_games, level)
       SELECT ladder, $2, player, rating, games, wins, losses, draws, rated_games, level
       FROM ladder_players WHERE ladder = $1 AND games > 0
       ON CONFLICT DO NOTHING`,
      [ladder, key],
    );
  }
}
