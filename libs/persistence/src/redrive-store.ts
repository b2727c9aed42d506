import type { Sql } from './sql.js';
import { storableOrNull } from './storable-text.js';

/** A dead letter sent again, and where its copy landed. */
export interface RedrivenLetter {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly eventId: string | null;
  readonly reason: string;
  readonly rejectedBy: string | null;
  readonly sentTopic: string;
  readonly sentPartition: number;
  readonly sentOffset: string;
}

/** Where a copy sent to the ladder log lies. */
export interface SentCopy {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

/**
 * What `ranking redrive` keeps and reads in PostgreSQL (ADR 31): the marks of the dead letters
 * it sent, and the traces the services leave of a copy (event store, checkpoints, rejections).
 */
export class RedriveStore {
  constructor(private readonly sql: Sql) {}

  /** The dead letters of `topic` an earlier run sent, as `partition:offset`. */
  async redriven(topic: string): Promise<Set<string>> {
    const rows = await this.sql.query<{ partition: number; offset: string }>(
      'SELECT partition, "offset" FROM redriven_dead_letters WHERE topic = $1',
      [topic],
    );
    return new Set(rows.map((r) => `${r.partition}:${r.offset}`));
  }

  /** Marks dead letters as sent (again: the newest copy is kept). */
  async mark(letters: readonly RedrivenLetter[]): Promise<void> {
    if (letters.length === 0) return;
    await this.sql.query(
      `INSERT INTO redriven_dead_letters
         (topic, partition, "offset", event_id, reason, rejected_by, sent_topic, sent_partition, sent_offset)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::bigint[])
       ON CONFLICT (topic, partition, "offset") DO UPDATE SET
         sent_topic = excluded.sent_topic, sent_partition = excluded.sent_partition,
         sent_offset = excluded.sent_offset, redriven_at = now()`,
      [
        letters.map((l) => l.topic),
        letters.map((l) => l.partition),
        letters.map((l) => l.offset),
        letters.map((l) => storableOrNull(l.eventId)),
        letters.map((l) => l.reason),
        letters.map((l) => l.rejectedBy),
        letters.map((l) => l.sentTopic),
        letters.map((l) => l.sentPartition),
        letters.map((l) => l.sentOffset),
      ],
    );
  }

  /** Which of these event ids the event store holds. */
  async stored(eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await this.sql.query<{ event_id: string }>(
      'SELECT event_id FROM event_store WHERE event_id = ANY($1::text[])',
      [eventIds],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  /** Each consumer's next offset on each partition of `topic`, as `consumer|partition`. */
  async checkpoints(topic: string): Promise<Map<string, bigint>> {
    const rows = await this.sql.query<{ consumer: string; partition: number; next_offset: string }>(
      'SELECT consumer, partition, next_offset FROM consumer_offsets WHERE topic = $1',
      [topic],
    );
    return new Map(rows.map((r) => [`${r.consumer}|${r.partition}`, BigInt(r.next_offset)]));
  }

  /** The rejections recorded of these copies, as `consumer|partition:offset` → reason. */
  async rejections(copies: readonly SentCopy[]): Promise<Map<string, string>> {
    if (copies.length === 0) return new Map();
    const rows = await this.sql.query<{
      consumer: string;
      partition: number;
      offset: string;
      reason: string;
    }>(
      `SELECT r.consumer, r.partition, r."offset", r.reason
       FROM rejected_messages r
       JOIN unnest($1::text[], $2::int[], $3::bigint[]) AS c(topic, partition, "offset")
         ON r.topic = c.topic AND r.partition = c.partition AND r."offset" = c."offset"`,
      [copies.map((c) => c.topic), copies.map((c) => c.partition), copies.map((c) => c.offset)],
    );
    return new Map(rows.map((r) => [`${r.consumer}|${r.partition}:${r.offset}`, r.reason]));
  }
}
