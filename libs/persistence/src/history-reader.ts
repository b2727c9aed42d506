import type { Skill } from '@ranking/rating';
import type { Sql } from './sql.js';

/** One change of a player's rating, with the rating core's reason for it. */
export interface HistoryEntry {
  readonly id: number;
  readonly seq: number;
  readonly eventId: string;
  readonly before: number;
  readonly after: number;
  readonly delta: number;
  readonly result: string | null;
  readonly why: unknown;
  readonly at: string;
  /** How the change moved the player's skill estimate (null: it did not, or before estimates were kept). */
  readonly skill: { readonly before: Skill; readonly after: Skill } | null;
}

/** Reads `rating_history`, newest first, a page at a time (keyset on the row id). */
export class HistoryReader {
  constructor(private readonly sql: Sql) {}

  async page(
    ladder: string,
    player: string,
    beforeId: number | null,
    limit: number,
  ): Promise<HistoryEntry[]> {
    const rows = await this.sql.query<{
      id: string;
      seq: string;
      event_id: string;
      before: number;
      after: number;
      delta: number;
      result: string | null;
      why: unknown;
      at: Date;
      skill_mu_before: number | null;
      skill_sigma_before: number | null;
      skill_mu_after: number | null;
      skill_sigma_after: number | null;
    }>(
      `SELECT id, seq, event_id, before, after, delta, result, why, at,
              skill_mu_before, skill_sigma_before, skill_mu_after, skill_sigma_after
       FROM rating_history
       WHERE ladder = $1 AND player = $2 AND ($3::bigint IS NULL OR id < $3)
       ORDER BY id DESC LIMIT $4`,
      [ladder, player, beforeId, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      seq: Number(r.seq),
      eventId: r.event_id,
      before: r.before,
      after: r.after,
      delta: r.delta,
      result: r.result,
      why: r.why,
      at: r.at.toISOString(),
      skill:
        r.skill_mu_after === null
          ? null
          : {
              before: { mu: r.skill_mu_before!, sigma: r.skill_sigma_before! },
              after: { mu: r.skill_mu_after, sigma: r.skill_sigma_after! },
            },
    }));
  }
}
