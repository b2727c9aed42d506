import type { PeriodName } from '@ranking/contracts';
import type { Sql } from './sql.js';

/** A ladder's next open window of one period, as the maintenance clock keeps it. */
export interface OpenPeriod {
  readonly ladder: string;
  readonly period: PeriodName;
  readonly key: string;
  /** Epoch ms. */
  readonly closesAt: number;
}

interface ClockRow {
  ladder: string;
  period: PeriodName;
  period_key: string;
  closes_at: string;
}

const toOpen = (r: ClockRow): OpenPeriod => ({
  ladder: r.ladder,
  period: r.period,
  key: r.period_key,
  closesAt: Number(r.closes_at),
});

/** The maintenance clocks: one row per ladder and period, the window that closes next. */
export class ClockStore {
  constructor(private readonly sql: Sql) {}

  /** Starts clocks that are not running yet; a running clock is left as it is. */
  async start(windows: readonly OpenPeriod[]): Promise<void> {
    if (windows.length === 0) return;
    await this.sql.query(
      `INSERT INTO maintenance_clocks (ladder, period, period_key, closes_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
       ON CONFLICT (ladder, period) DO NOTHING`,
      [
        windows.map((w) => w.ladder),
        windows.map((w) => w.period),
        windows.map((w) => w.key),
        windows.map((w) => w.closesAt),
      ],
    );
  }

  /** Ladders with a close due by `at` (epoch ms). */
  async laddersDue(at: number): Promise<string[]> {
    const rows = await this.sql.query<{ ladder: string }>(
      'SELECT DISTINCT ladder FROM maintenance_clocks WHERE closes_at <= $1 ORDER BY ladder',
      [at],
    );
    return rows.map((r) => r.ladder);
  }

  /**
   * Locks one ladder's clock for this transaction; null when another transaction holds it
   * (another instance is closing that ladder right now).
   */
  async lock(ladder: string): Promise<OpenPeriod[] | null> {
    const rows = await this.sql.query<ClockRow>(
      `SELECT ladder, period, period_key, closes_at FROM maintenance_clocks
       WHERE ladder = $1 FOR UPDATE SKIP LOCKED`,
      [ladder],
    );
    return rows.length === 0 ? null : rows.map(toOpen);
  }

  async save(windows: readonly OpenPeriod[]): Promise<void> {
    if (windows.length === 0) return;
    await this.sql.query(
      `UPDATE maintenance_clocks c SET period_key = u.period_key, closes_at = u.closes_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS u(ladder, period, period_key, closes_at)
       WHERE c.ladder = u.ladder AND c.period = u.period`,
      [
        windows.map((w) => w.ladder),
        windows.map((w) => w.period),
        windows.map((w) => w.key),
        windows.map((w) => w.closesAt),
      ],
    );
  }

  /** Every running clock, by ladder and close time. */
  async all(): Promise<OpenPeriod[]> {
    const rows = await this.sql.query<ClockRow>(
      'SELECT ladder, period, period_key, closes_at FROM maintenance_clocks ORDER BY ladder, closes_at',
    );
    return rows.map(toOpen);
  }

  /** Replaces every clock (the rebuild from the event store). */
  async replaceAll(windows: readonly OpenPeriod[]): Promise<void> {
    await this.sql.query('DELETE FROM maintenance_clocks');
    await this.start(windows);
  }
}
