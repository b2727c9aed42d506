import { producerIdPrefix } from '@ranking/contracts';
import {
  type EventTraces,
  leavesReceipt,
  type RejectedEvent,
  type SubmittedEvent,
} from '@ranking/ingestion';
import type { Sql } from './sql.js';

/** Receipts one statement of the retention purge deletes at most (ADR 42). */
export const RECEIPT_PURGE_BATCH = 5000;

/**
 * What `POST /v1/games` answered of each event id (`ingest_receipts`, ADR 34), and the traces
 * `GET /v1/events/:id` reads: the receipt, the event store (with a void game's reason) and the
 * newest rejection a service recorded for the id.
 */
export class IngestReceiptRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Records a request's events as sent; answers the ids that are new. An id sent before is a
   * repeat and keeps its receipt; one refused before is replaced (a fixed event may be resent).
   * Run in the transaction that sends them: a concurrent request with the same id waits for it.
   */
  async recordAccepted(producer: string, events: readonly SubmittedEvent[]): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    const rows = await this.sql.query<{ event_id: string }>(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status)
       SELECT id, $1, ladder, digest, 'accepted'
       FROM unnest($2::text[], $3::text[], $4::bytea[]) AS e(id, ladder, digest)
       ON CONFLICT (event_id) DO UPDATE
         SET producer = EXCLUDED.producer, ladder = EXCLUDED.ladder, digest = EXCLUDED.digest,
             status = 'accepted', code = NULL, detail = NULL, received_at = now()
         WHERE ingest_receipts.status = 'rejected'
       RETURNING event_id`,
      [producer, events.map((e) => e.id), events.map((e) => e.ladder), events.map((e) => e.digest)],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  /**
   * Records refusals of events with an id the contract allows and a ladder (leavesReceipt) in
   * the producer's namespace (ADR 39), except over a receipt of an event that was sent. Nothing
   * else is inserted: no key longer than 128 code points ever reaches the table, and an id
   * outside the namespace is another producer's, or no one's: a receipt under it would answer
   * for an event this producer may not send.
   */
  async recordRejected(producer: string, rejected: readonly RejectedEvent[]): Promise<void> {
    const byId = new Map<string, RejectedEvent>();
    for (const r of rejected)
      if (leavesReceipt(r) && r.id.startsWith(producerIdPrefix(producer)) && !byId.has(r.id))
        byId.set(r.id, r);
    if (byId.size === 0) return;
    const events = [...byId.values()];
    await this.sql.query(
      `INSERT INTO ingest_receipts (event_id, producer, digest, status, code, detail)
       SELECT id, $1, digest, 'rejected', code, detail
       FROM unnest($2::text[], $3::bytea[], $4::text[], $5::text[]) AS e(id, digest, code, detail)
       ON CONFLICT (event_id) DO UPDATE
         SET producer = EXCLUDED.producer, digest = EXCLUDED.digest, code = EXCLUDED.code,
             detail = EXCLUDED.detail, received_at = now()
         WHERE ingest_receipts.status = 'rejected'`,
      [
        producer,
        events.map((e) => e.id),
        events.map((e) => e.digest),
        events.map((e) => e.code),
        events.map((e) => e.detail),
      ],
    );
  }

  /**
   * Deletes the receipts older than `retentionDays`, oldest first, a batch of at most
   * `batchSize` a statement, each its own transaction: no statement locks more rows than a
   * batch, and a request's upsert waits at most for one batch. Rows another transaction holds
   * are skipped (a replica purging at the same time, a request refreshing a refused receipt).
   * After each batch `afterBatch` is told how many went; it may answer false to stop (the
   * service shutting down). Ends at the first batch short of `batchSize`; answers the total.
   */
  async purgeOlderThan(
    retentionDays: number,
    batchSize = RECEIPT_PURGE_BATCH,
    afterBatch: (deleted: number) => boolean | Promise<boolean> = () => true,
  ): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.sql.query<{ n: number }>(
        `WITH gone AS (
           DELETE FROM ingest_receipts WHERE ctid = ANY (ARRAY(
             SELECT ctid FROM ingest_receipts
             WHERE received_at < now() - make_interval(days => $1::int)
             ORDER BY received_at LIMIT $2::int
             FOR UPDATE SKIP LOCKED))
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [retentionDays, batchSize],
      );
      const deleted = row!.n;
      total += deleted;
      if (!(await afterBatch(deleted)) || deleted < batchSize) return total;
    }
  }

  async traces(id: string): Promise<EventTraces> {
    const [receipts, stored, rejections] = await Promise.all([
      this.sql.query<{
        producer: string;
        ladder: string | null;
        digest: Buffer;
        status: 'accepted' | 'rejected';
        code: string | null;
        detail: string | null;
        received_at: Date;
      }>(
        `SELECT producer, ladder, digest, status, code, detail, received_at
         FROM ingest_receipts WHERE event_id = $1`,
        [id],
      ),
      this.sql.query<{
        ladder: string;
        type: string;
        seq: string;
        digest: Buffer;
        recorded_at: Date;
        reason: string | null;
      }>(
        `SELECT e.ladder, e.type, e.seq::text AS seq, sha256(convert_to(e.payload::text, 'UTF8')) AS digest,
                e.recorded_at, v.reason
         FROM event_store e LEFT JOIN void_games v ON v.ladder = e.ladder AND v.seq = e.seq
         WHERE e.event_id = $1`,
        [id],
      ),
      this.sql.query<{
        consumer: string;
        message_key: Buffer | null;
        reason: string;
        detail: string;
        received_at: Date;
      }>(
        `SELECT consumer, message_key, reason, detail, received_at FROM rejected_messages
         WHERE event_id = $1 ORDER BY id DESC LIMIT 1`,
        [id],
      ),
    ]);
    const receipt = receipts[0];
    const event = stored[0];
    const rejection = rejections[0];
    return {
      receipt: receipt
        ? {
            producer: receipt.producer,
            ladder: receipt.ladder,
            digest: receipt.digest,
            status: receipt.status,
            code: receipt.code,
            detail: receipt.detail,
            receivedAt: receipt.received_at,
          }
        : null,
      stored: event
        ? {
            ladder: event.ladder,
            type: event.type,
            position: event.seq,
            digest: event.digest,
            recordedAt: event.recorded_at,
            voidReason: event.reason,
          }
        : null,
      rejection: rejection
        ? {
            by: rejection.consumer,
            ladder: rejection.message_key?.toString('utf8') ?? null,
            code: rejection.reason,
            detail: rejection.detail,
            rejectedAt: rejection.received_at,
          }
        : null,
    };
  }
}
