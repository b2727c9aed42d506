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
  readonly value: Buffer;
  readonly headers: Record<string, string>;
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

  async enqueue(messages: readonly OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.sql.query(
      `INSERT INTO outbox (topic, message_key, value, headers)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::jsonb[])`,
      [
        messages.map((m) => m.topic),
        messages.map((m) => m.key),
        messages.map((m) => m.value),
        messages.map((m) => JSON.stringify(m.headers)),
      ],
    );
  }

  /** The oldest waiting outbox messages, locked so that two relays never send the same row at once. */
  async claimOutbox(limit: number): Promise<(OutboxMessage & { id: string })[]> {
    const rows = await this.sql.query<{
      id: string;
      topic: string;
      message_key: string | null;
      value: Buffer;
      headers: Record<string, string>;
    }>(
      'SELECT id, topic, message_key, value, headers FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      key: r.message_key,
      value: r.value,
      headers: r.headers,
    }));
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
