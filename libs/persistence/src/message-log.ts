import { isUtf8 } from 'node:buffer';
import { DEAD_LETTER_HEADERS, parseEvent, safeDetail, UNPROCESSABLE } from '@ranking/contracts';
import type { OutboxHandoff } from './outbox-handoff.js';
import type { Sql } from './sql.js';
import { storableOrNull } from './storable-text.js';

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
  /** A rejection code of the contract, or `unprocessable`. */
  readonly reason: string;
  readonly detail: string;
}

/** The consumer whose rejections are the contract's (the export lists only its own). */
export const REJECTING_CONSUMER = 'rating-service';

export interface OutboxMessage {
  readonly topic: string;
  /** Text, or the raw bytes of a dead letter's key kept unchanged. */
  readonly key: string | Buffer | null;
  /**
   * A message body: text as built by the service, or raw bytes kept unchanged (dead letters;
   * null for a message that had no value).
   */
  readonly value: string | Buffer | null;
  readonly headers: Record<string, string>;
}

/** One message inside an outbox bundle: `v` is UTF-8 text, `b` base64 for bytes that are not. */
interface BundledMessage {
  t: string;
  k: string | null;
  /** A key that is not UTF-8, base64. */
  kb?: string;
  h: Record<string, string>;
  v?: string;
  b?: string;
}

function bundledKey(key: string | Buffer | null): { k: string | null; kb?: string } {
  if (key === null || typeof key === 'string') return { k: key };
  return isUtf8(key) ? { k: key.toString('utf8') } : { k: null, kb: key.toString('base64') };
}

function bundled(m: OutboxMessage): BundledMessage {
  const base = { t: m.topic, ...bundledKey(m.key), h: m.headers };
  if (typeof m.value === 'string') return { ...base, v: m.value };
  // Neither v nor b: a message without a value.
  if (m.value === null) return base;
  return isUtf8(m.value)
    ? { ...base, v: m.value.toString('utf8') }
    : { ...base, b: m.value.toString('base64') };
}

function unbundled(m: BundledMessage): OutboxMessage {
  return {
    topic: m.t,
    key: m.kb !== undefined ? Buffer.from(m.kb, 'base64') : m.k,
    headers: m.h,
    value:
      m.b !== undefined
        ? Buffer.from(m.b, 'base64')
        : m.v !== undefined
          ? Buffer.from(m.v, 'utf8')
          : null,
  };
}

/** Outbox messages claimed for publishing: the rows to delete once the broker acknowledged them. */
export interface ClaimedOutbox {
  readonly rows: string[];
  readonly messages: OutboxMessage[];
}

/** A rejected message as the dead-letter topic gets it: unchanged, with the reason in headers. */
export function deadLetterOf(
  rejected: RejectedMessage,
  topic: string,
  consumer: string = REJECTING_CONSUMER,
): OutboxMessage {
  return {
    topic,
    key: rejected.message.key,
    value: rejected.message.value,
    headers: {
      [DEAD_LETTER_HEADERS.reason]: rejected.reason,
      [DEAD_LETTER_HEADERS.detail]: safeDetail(rejected.detail),
      [DEAD_LETTER_HEADERS.consumer]: consumer,
    },
  };
}

/** A message that passed every check but failed on its own with `error`: set aside, never lost. */
export function unprocessable(message: RawMessage, error: unknown): RejectedMessage {
  const outcome = parseEvent(message.value);
  return {
    message,
    eventId: outcome.ok ? outcome.event.id : outcome.id,
    reason: UNPROCESSABLE,
    detail: error instanceof Error ? error.message : String(error),
  };
}

/** The id a rejection names, re-read from the message when the stored column could not hold it. */
function rejectedIdOf(value: Buffer | null): string | null {
  if (value === null) return null;
  const outcome = parseEvent(value);
  return outcome.ok ? outcome.event.id : outcome.id;
}

/** Rejected messages and the transactional outbox (what is published after the transaction commits). */
export class MessageLog {
  /** With a handoff, the bundles this process writes are published from memory (see OutboxHandoff). */
  constructor(
    private readonly sql: Sql,
    private readonly handoff?: OutboxHandoff,
  ) {}

  /**
   * Rejected messages of `consumer`, byte for byte. An id or detail PostgreSQL text cannot
   * hold (NUL, an unpaired surrogate) is stored as null or escaped: the raw value keeps it.
   */
  async recordRejected(
    rows: readonly RejectedMessage[],
    consumer: string = REJECTING_CONSUMER,
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO rejected_messages (consumer, topic, partition, "offset", event_id, reason, detail, message_key, value)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bytea[], $9::bytea[])
       ON CONFLICT DO NOTHING`,
      [
        consumer,
        rows.map((r) => r.message.topic),
        rows.map((r) => r.message.partition),
        rows.map((r) => r.message.offset),
        rows.map((r) => storableOrNull(r.eventId)),
        rows.map((r) => r.reason),
        rows.map((r) => safeDetail(r.detail)),
        rows.map((r) => r.message.key),
        rows.map((r) => r.message.value),
      ],
    );
  }

  /** The transaction's messages as one outbox row, in order. */
  async enqueue(messages: readonly OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const [row] = await this.sql.query<{ id: string }>(
      'INSERT INTO outbox (bundle) VALUES ($1) RETURNING id',
      [JSON.stringify(messages.map(bundled))],
    );
    this.handoff?.keep(row!.id, messages);
  }

  /**
   * The oldest waiting outbox rows, locked so that two relays never send the same row at
   * once, expanded into their messages in order. Rows written one message per row (before
   * bundles) are read too.
   */
  async claimOutbox(rowLimit: number): Promise<ClaimedOutbox> {
    // Bundles the handoff holds are not read back (null here), only locked.
    const handed = this.handoff?.snapshot() ?? new Map<string, readonly OutboxMessage[]>();
    const rows = await this.sql.query<{
      id: string;
      topic: string | null;
      message_key: string | null;
      value: Buffer | null;
      headers: Record<string, string>;
      /** A JSON array of `BundledMessage`s, as text. */
      bundle: string | null;
    }>(
      `SELECT id, topic, message_key, value, headers,
         CASE WHEN id = ANY($2::bigint[]) THEN NULL ELSE bundle END AS bundle
       FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [rowLimit, [...handed.keys()]],
    );
    const messages: OutboxMessage[] = [];
    for (const r of rows) {
      const kept = handed.get(r.id);
      if (kept) {
        for (const m of kept) messages.push(m);
        this.handoff?.forget(r.id);
      } else if (r.bundle)
        for (const m of JSON.parse(r.bundle) as BundledMessage[]) messages.push(unbundled(m));
      else if (r.value && r.topic)
        messages.push({ topic: r.topic, key: r.message_key, value: r.value, headers: r.headers });
    }
    return { rows: rows.map((r) => r.id), messages };
  }

  /** Messages waiting in the outbox (a bundle counts its messages). */
  async pendingOutboxMessages(): Promise<number> {
    const [row] = await this.sql.query<{ n: string }>(
      'SELECT coalesce(sum(CASE WHEN bundle IS NULL THEN 1 ELSE json_array_length(bundle::json) END), 0) AS n FROM outbox',
    );
    return Number(row?.n ?? 0);
  }

  async deleteOutbox(ids: readonly string[]): Promise<void> {
    if (ids.length > 0)
      await this.sql.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** The rating service's rejected messages in arrival order, with the ids they named. */
  async rejectedList(): Promise<{ id: string | null; reason: string }[]> {
    const rows = await this.sql.query<{ id: string | null; reason: string; value: Buffer | null }>(
      `SELECT event_id AS id, reason, CASE WHEN event_id IS NULL THEN value END AS value
       FROM rejected_messages WHERE consumer = $1 ORDER BY rejected_messages.id`,
      [REJECTING_CONSUMER],
    );
    return rows.map((r) => ({ id: r.id ?? rejectedIdOf(r.value), reason: r.reason }));
  }
}
