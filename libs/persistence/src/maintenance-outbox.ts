import type { Sql } from './sql.js';

/** An event the maintenance service decided, waiting to be published (key = ladder). */
export interface DecidedEvent {
  readonly topic: string;
  readonly key: string;
  readonly value: string | Buffer;
  /** A dead letter's headers (reason, detail). */
  readonly headers?: Record<string, string>;
}

/** Any constant: the relay's transaction-scoped advisory lock. */
const RELAY_LOCK = 0x6d61696e;

/**
 * The maintenance service's transactional outbox: decisions are written with the state that
 * made them and published after the commit, at least once (their ids make a repeat harmless).
 */
export class MaintenanceOutbox {
  constructor(private readonly sql: Sql) {}

  async enqueue(events: readonly DecidedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.sql.query(
      `INSERT INTO maintenance_outbox (topic, message_key, value, headers)
       SELECT t, k, v, h::json FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[]) AS u(t, k, v, h)`,
      [
        events.map((e) => e.topic),
        events.map((e) => e.key),
        events.map((e) => (typeof e.value === 'string' ? Buffer.from(e.value) : e.value)),
        events.map((e) => (e.headers ? JSON.stringify(e.headers) : null)),
      ],
    );
  }

  /**
   * The oldest waiting events, or none when another relay is publishing: one relay at a time
   * keeps each ladder's decisions in the order they were made.
   */
  async claim(limit: number): Promise<(DecidedEvent & { id: string; value: Buffer })[]> {
    const [lock] = await this.sql.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [RELAY_LOCK],
    );
    if (!lock?.locked) return [];
    const rows = await this.sql.query<{
      id: string;
      topic: string;
      message_key: string;
      value: Buffer;
      headers: Record<string, string> | null;
    }>(
      'SELECT id, topic, message_key, value, headers FROM maintenance_outbox ORDER BY id LIMIT $1',
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      key: r.message_key,
      value: r.value,
      ...(r.headers ? { headers: r.headers } : {}),
    }));
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query('DELETE FROM maintenance_outbox WHERE id = ANY($1::bigint[])', [ids]);
  }

  async pending(): Promise<number> {
    const [row] = await this.sql.query<{ n: string }>(
      'SELECT count(*) AS n FROM maintenance_outbox',
    );
    return Number(row?.n ?? 0);
  }
}
