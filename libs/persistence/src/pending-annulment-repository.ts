import type { PlayerAnnulled } from '@ranking/contracts';
import type { Sql } from './sql.js';

/** Annulments accepted into the store and not yet swapped in (ADR 24). */
export class PendingAnnulmentRepository {
  constructor(private readonly sql: Sql) {}

  /** Annulments accepted into the store, for the refolder to swap in (ADR 24). */
  async recordPendingAnnulments(
    rows: readonly { ladder: string; seq: number; eventId: string }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO pending_annulments (ladder, seq, event_id)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])`,
      [rows.map((r) => r.ladder), rows.map((r) => r.seq), rows.map((r) => r.eventId)],
    );
  }

  /** Ladders with annulments waiting, the longest waiting first. */
  async pendingLadders(): Promise<string[]> {
    const rows = await this.sql.query<{ ladder: string }>(
      'SELECT ladder FROM pending_annulments GROUP BY ladder ORDER BY min(accepted_at), ladder',
    );
    return rows.map((r) => r.ladder);
  }

  /** A ladder's pending annulments up to a position, in log order, with their events. */
  async pendingOf(ladder: string, upTo: number): Promise<{ seq: number; event: PlayerAnnulled }[]> {
    const rows = await this.sql.query<{ seq: string; payload: string }>(
      `SELECT p.seq, e.payload FROM pending_annulments p
       JOIN event_store e ON e.ladder = p.ladder AND e.seq = p.seq
       WHERE p.ladder = $1 AND p.seq <= $2 ORDER BY p.seq`,
      [ladder, upTo],
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      event: JSON.parse(r.payload) as PlayerAnnulled,
    }));
  }

  /** The ladder's annulments up to a position are swapped in. */
  async settle(ladder: string, upTo: number): Promise<void> {
    await this.sql.query('DELETE FROM pending_annulments WHERE ladder = $1 AND seq <= $2', [
      ladder,
      upTo,
    ]);
  }
}
