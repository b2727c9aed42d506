import type { StandingRow } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { BoardSlice } from '@ranking/redis';
import { boardEntry } from './board-row.js';
import type { PageCursor } from './page-cursor.js';

/** What a page or a player's neighbourhood of a board needs: rankSlice reads it. */
export type BoardPart = Pick<BoardSlice, 'start' | 'firstRank' | 'total' | 'items'>;

/**
 * UTF-16 code units compared as code points, which is the byte order of UTF-8: how Redis orders
 * the members of equal score on the live board. The two orders differ only where a surrogate
 * meets a unit from U+E000 up.
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number): number =>
  unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800;

/**
 * A ladder's live board as of an instant, held in memory: the ranked players in board order
 * (score = minus the rating, ascending; equal scores in member byte order, as the live board's
 * sorted set keeps them) and every player's compact row, as `boardEntry` makes them for Redis.
 * Pages and neighbourhoods come out in the shape the Redis scripts give, so the live board's
 * ranking and row encoding apply unchanged.
 */
export class PointInTimeBoard {
  private readonly members: string[] = [];
  private readonly scores: Float64Array;
  private readonly indexOf = new Map<string, number>();
  private readonly rows = new Map<string, string>();

  constructor(standings: readonly StandingRow[], ladder: LadderConfig) {
    const ranked: { member: string; score: number }[] = [];
    for (const row of standings) {
      const entry = boardEntry(row, ladder);
      this.rows.set(entry.member, entry.data);
      if (entry.ranked) ranked.push({ member: entry.member, score: entry.score });
    }
    ranked.sort((a, b) => a.score - b.score || byCodePoint(a.member, b.member));
    this.scores = new Float64Array(ranked.length);
    for (const [i, r] of ranked.entries()) {
      this.members.push(r.member);
      this.scores[i] = r.score;
      this.indexOf.set(r.member, i);
    }
  }

  /** Ranked players: the board's total. */
  get total(): number {
    return this.members.length;
  }

  /** Players who had played (ranked or not): what the cache weighs a board by. */
  get players(): number {
    return this.rows.size;
  }

  /**
   * Up to `limit` ranked rows after the cursor. As the live board's page script: from just after
   * the cursor's member while it still has the cursor's score, otherwise from the first row
   * scored above the cursor's score.
   */
  page(after: PageCursor | null, limit: number): BoardPart {
    let start = 0;
    if (after !== null) {
      const at = this.indexOf.get(after.member);
      start =
        at !== undefined && String(this.scores[at]) === after.score
          ? at + 1
          : this.countUpTo(Number(after.score), true);
    }
    return this.slice(start, start + limit);
  }

  /**
   * A player's row (null when they had not played) and, when ranked, their index and the rows
   * `around` either side; an unranked player gets an empty slice, as from the live board.
   */
  member(
    player: string,
    around: number,
  ): { data: string | null; index: number | null; board: BoardPart } {
    const data = this.rows.get(player) ?? null;
    const index = this.indexOf.get(player);
    if (index === undefined) return { data, index: null, board: this.slice(0, 0) };
    return { data, index, board: this.slice(Math.max(0, index - around), index + around + 1) };
  }

  /** Rows [start, end) in board order, with the first one's competition rank. */
  private slice(start: number, end: number): BoardPart {
    const items: { member: string; score: string; data: string }[] = [];
    for (let i = start; i < Math.min(end, this.members.length); i++) {
      const member = this.members[i]!;
      items.push({ member, score: String(this.scores[i]), data: this.rows.get(member)! });
    }
    const firstRank = items.length === 0 ? 0 : this.countUpTo(this.scores[start]!, false) + 1;
    return { start, firstRank, total: this.members.length, items };
  }

  /** How many ranked rows score below `score` (or at most `score` when `inclusive`). */
  private countUpTo(score: number, inclusive: boolean): number {
    let lo = 0;
    let hi = this.scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.scores[mid]!;
      if (s < score || (inclusive && s === score)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
