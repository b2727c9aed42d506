import type { LadderEvent } from '@ranking/contracts';
import type { Skill } from '@ranking/rating';
import { type HistoryEvent, historyEvent } from './history-event.js';
import type { Sql } from './sql.js';

/** Another player the same game moved: an opponent, or a team-mate (the same result). */
export interface HistoryOther {
  readonly player: string;
  readonly before: number;
  readonly after: number;
  readonly delta: number;
  readonly result: string | null;
}

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
  /** The event behind the change (null if the event store no longer holds it). */
  readonly event: HistoryEvent | null;
  /** For a game or its correction: the other players it moved, in the order they were written. */
  readonly others: readonly HistoryOther[];
}

const GAME_TYPES: ReadonlySet<string> = new Set(['game.finished', 'game.corrected']);

/**
 * Reads `rating_history`, newest first, a page at a time (keyset on the row id), with each
 * row's event from the event store and, for games, the other players' rows of the same event.
 */
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
    const seqs = [...new Set(rows.map((r) => r.seq))];
    const events = await this.events(ladder, seqs);
    const games = rows.filter((r) => GAME_TYPES.has(events.get(r.seq)?.type ?? ''));
    const others = await this.others(
      ladder,
      games.map((r) => r.id),
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
      event: events.get(r.seq) ?? null,
      others: others.get(r.seq) ?? [],
    }));
  }

  /** The events of these places in the ladder's log, by seq. */
  private async events(
    ladder: string,
    seqs: readonly string[],
  ): Promise<Map<string, HistoryEvent>> {
    const bySeq = new Map<string, HistoryEvent>();
    if (seqs.length === 0) return bySeq;
    const rows = await this.sql.query<{ seq: string; payload: string }>(
      'SELECT seq, payload FROM event_store WHERE ladder = $1 AND seq = ANY($2::bigint[])',
      [ladder, seqs],
    );
    // The store holds events as validated on the way in.
    for (const r of rows) bySeq.set(r.seq, historyEvent(JSON.parse(r.payload) as LadderEvent));
    return bySeq;
  }

  /**
   * Every other player's row of the events of these rows (the page player's), by seq. The rows
   * of one event are one transaction's and share its instant: `rating_history_when` finds them.
   */
  private async others(
    ladder: string,
    rowIds: readonly string[],
  ): Promise<Map<string, HistoryOther[]>> {
    const bySeq = new Map<string, HistoryOther[]>();
    if (rowIds.length === 0) return bySeq;
    const rows = await this.sql.query<{
      seq: string;
      player: string;
      before: number;
      after: number;
      delta: number;
      result: string | null;
    }>(
      `SELECT o.seq, o.player, o.before, o.after, o.delta, o.result
       FROM rating_history r JOIN rating_history o
         ON o.ladder = r.ladder AND o.at = r.at AND o.seq = r.seq AND o.player <> r.player
       WHERE r.id = ANY($2::bigint[]) AND r.ladder = $1 ORDER BY o.id`,
      [ladder, rowIds],
    );
    for (const r of rows) {
      const other = {
        player: r.player,
        before: r.before,
        after: r.after,
        delta: r.delta,
        result: r.result,
      };
      const list = bySeq.get(r.seq);
      if (list) list.push(other);
      else bySeq.set(r.seq, [other]);
    }
    return bySeq;
  }
}
