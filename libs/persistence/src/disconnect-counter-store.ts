import type { DisconnectCounter } from '@ranking/rating';
import type { Sql } from './sql.js';

export interface CounterRow extends DisconnectCounter {
  readonly ladder: string;
  readonly player: string;
}

/** The disconnect counters and the ids of the games already counted. */
export class DisconnectCounterStore {
  constructor(private readonly sql: Sql) {}

  /** Records games as counted; returns the ids that were not counted before. */
  async markCounted(ladder: string, eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await this.sql.query<{ event_id: string }>(
      `INSERT INTO disconnect_games (event_id, ladder) SELECT unnest($1::text[]), $2
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [eventIds, ladder],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  /** The counters of some players of a ladder, locked for this transaction. */
  async load(ladder: string, players: readonly string[]): Promise<Map<string, DisconnectCounter>> {
    if (players.length === 0) return new Map();
    const rows = await this.sql.query<CounterRow>(
      `SELECT player, count, streak, penalties FROM disconnect_counters
       WHERE ladder = $1 AND player = ANY($2::text[]) FOR UPDATE`,
      [ladder, players],
    );
    return new Map(
      rows.map((r) => [r.player, { count: r.count, streak: r.streak, penalties: r.penalties }]),
    );
  }

  async save(rows: readonly CounterRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO disconnect_counters (ladder, player, count, streak, penalties)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[])
       ON CONFLICT (ladder, player) DO UPDATE SET count = EXCLUDED.count,
         streak = EXCLUDED.streak, penalties = EXCLUDED.penalties`,
      [
        rows.map((r) => r.ladder),
        rows.map((r) => r.player),
        rows.map((r) => r.count),
        rows.map((r) => r.streak),
        rows.map((r) => r.penalties),
      ],
    );
  }

  async all(ladder: string | null): Promise<CounterRow[]> {
    return this.sql.query<CounterRow>(
      `SELECT ladder, player, count, streak, penalties FROM disconnect_counters
       WHERE $1::text IS NULL OR ladder = $1 ORDER BY ladder, player`,
      [ladder],
    );
  }

  /** Replaces every counter and counted game (the rebuild from the event store). */
  async replaceAll(
    rows: readonly CounterRow[],
    counted: readonly { ladder: string; eventId: string }[],
  ): Promise<void> {
    await this.sql.query('DELETE FROM disconnect_counters');
    await this.sql.query('DELETE FROM disconnect_games');
    await this.save(rows);
    for (let i = 0; i < counted.length; i += 10_000) {
      const page = counted.slice(i, i + 10_000);
      await this.sql.query(
        `INSERT INTO disconnect_games (event_id, ladder)
         SELECT * FROM unnest($1::text[], $2::text[])`,
        [page.map((c) => c.eventId), page.map((c) => c.ladder)],
      );
    }
  }
}
