import type { Sql } from './sql.js';

/** An event the maintenance service decided, waiting to be published (key = ladder). */
export interface DecidedEvent {
  readonly topic: string;
  readonly key: string;
  readonly value: string;
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
      `INSERT INTO maintenance_outbox (topic, message_key, value)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[])`,
      [
        events.map((e) => e.topic),
        events.map((e) => e.key),
        events.map((e) => Buffer.from(e.value)),
      ],
    );
  }

  /**
   * The oldest waiting events, or none when another relay is publishing: one relay at a time
   * keeps each ladder's decisions in the order they were made.
   */
  async claim(limit: number): Promise<(DecidedEvent & { id: string })[]> {
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
    }>('SELECT id, topic, message_key, value FROM maintenance_outbox ORDER BY id LIMIT $1', [
      limit,
    ]);
    return rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      key: r.message_key,
      value: r.value.toString('utf8'),
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
