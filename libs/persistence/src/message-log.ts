import { isUtf8 } from 'node:buffer';
import type { Sql } from './sql.js';

/** A message as it came off a topic: kept byte for byte for the dead-letter topic. */
export interface RawMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
}

export interface RejectedMessage {
  readonly message: RawMessage;
  readonly eventId: string | null;
  readonly reason: string;
  readonly detail: string;
}

export interface OutboxMessage {
  readonly topic: string;
  readonly key: string | null;
  /** A message body: text as built by the service, or raw bytes kept unchanged (dead letters). */
  readonly value: string | Buffer;
  readonly headers: Record<string, string>;
}

/** One message inside an outbox bundle: `v` is UTF-8 text, `b` base64 for bytes that are not. */
interface BundledMessage {
  t: string;
  k: string | null;
  h: Record<string, string>;
  v?: string;
  b?: string;
}

function bundled(m: OutboxMessage): BundledMessage {
  const base = { t: m.topic, k: m.key, h: m.headers };
  if (typeof m.value === 'string') return { ...base, v: m.value };
  return isUtf8(m.value)
    ? { ...base, v: m.value.toString('utf8') }
    : { ...base, b: m.value.toString('base64') };
}

function unbundled(m: BundledMessage): OutboxMessage {
  return {
    topic: m.t,
    key: m.k,
    headers: m.h,
    value: m.b !== undefined ? Buffer.from(m.b, 'base64') : Buffer.from(m.v ?? '', 'utf8'),
  };
}

/** Outbox messages claimed for publishing: the rows to delete once the broker acknowledged them. */
export interface ClaimedOutbox {
  readonly rows: string[];
  readonly messages: OutboxMessage[];
}

/** Rejected messages and the transactional outbox (what is published after the transaction commits). */
export class MessageLog {
  constructor(private readonly sql: Sql) {}

  async recordRejected(rows: readonly RejectedMessage[]): Promise<void> {
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO rejected_messages (topic, partition, "offset", event_id, reason, detail, message_key, value)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bytea[], $8::bytea[])
       ON CONFLICT DO NOTHING`,
      [
        rows.map((r) => r.message.topic),
        rows.map((r) => r.message.partition),
        rows.map((r) => r.message.offset),
        rows.map((r) => r.eventId),
        rows.map((r) => r.reason),
        rows.map((r) => r.detail),
        rows.map((r) => r.message.key),
        rows.map((r) => r.message.value),
      ],
    );
  }

  /** The transaction's messages as one outbox row, in order. */
  async enqueue(messages: readonly OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.sql.query('INSERT INTO outbox (bundle) VALUES ($1)', [
      JSON.stringify(messages.map(bundled)),
    ]);
  }

  /**
   * The oldest waiting outbox rows, locked so that two relays never send the same row at
   * once, expanded into their messages in order. Rows written one message per row (before
   * bundles) are read too.
   */
  async claimOutbox(rowLimit: number): Promise<ClaimedOutbox> {
    const rows = await this.sql.query<{
      id: string;
      topic: string | null;
      message_key: string | null;
      value: Buffer | null;
      headers: Record<string, string>;
      /** A JSON array of `BundledMessage`s, as text. */
      bundle: string | null;
    }>(
      'SELECT id, topic, message_key, value, headers, bundle FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
      [rowLimit],
    );
    const messages: OutboxMessage[] = [];
    for (const r of rows) {
      if (r.bundle)
        for (const m of JSON.parse(r.bundle) as BundledMessage[]) messages.push(unbundled(m));
      else if (r.value && r.topic)
        messages.push({ topic: r.topic, key: r.message_key, value: r.value, headers: r.headers });
    }
    return { rows: rows.map((r) => r.id), messages };
  }

  async deleteOutbox(ids: readonly string[]): Promise<void> {
    if (ids.length > 0)
      await this.sql.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Rejected messages in arrival order. */
  async rejectedList(): Promise<{ id: string | null; reason: string }[]> {
    return this.sql.query<{ id: string | null; reason: string }>(
      'SELECT event_id AS id, reason FROM rejected_messages ORDER BY rejected_messages.id',
    );
  }
}
