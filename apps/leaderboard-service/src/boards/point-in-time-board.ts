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
  /** Every player who had played, in the order given, with their compact rows. */
  private readonly members: string[] = [];
  private readonly rows: string[] = [];
  /** Each player's position in `members`. */
  private readonly indexOf = new Map<string, number>();
  /** Board order: positions in `members` of the ranked players, and their scores in that order. */
  private readonly order: Uint32Array;
  private readonly scores: Float64Array;
  /** Each player's index in board order, or -1 when not ranked. */
  private readonly boardIndexOf: Int32Array;

  constructor(standings: readonly StandingRow[], ladder: LadderConfig) {
    // Plain arrays and one sort of positions: a board of 100,000 players is built per request.
    const score = new Float64Array(standings.length);
    const ranked: number[] = [];
    for (const row of standings) {
      const entry = boardEntry(row, ladder);
      const at = this.members.length;
      this.members.push(entry.member);
      this.rows.push(entry.data);
      this.indexOf.set(entry.member, at);
      score[at] = entry.score;
      if (entry.ranked) ranked.push(at);
    }
    ranked.sort((a, b) => score[a]! - score[b]! || byCodePoint(this.members[a]!, this.members[b]!));
    this.order = Uint32Array.from(ranked);
    this.scores = new Float64Array(ranked.length);
    this.boardIndexOf = new Int32Array(this.members.length).fill(-1);
    for (const [i, at] of ranked.entries()) {
      this.scores[i] = score[at]!;
      this.boardIndexOf[at] = i;
    }
  }

  /** Ranked players: the board's total. */
  get total(): number {
    return this.order.length;
  }

  /** Players who had played (ranked or not): what the cache weighs a board by. */
  get players(): number {
    return this.members.length;
  }

  /**
   * Up to `limit` ranked rows after the cursor. As the live board's page script: from just after
   * the cursor's member while it still has the cursor's score, otherwise from the first row
   * scored above the cursor's score; without a cursor, from the 0-based `position`.
   */
  page(after: PageCursor | null, limit: number, position = 0): BoardPart {
    let start = position;
    if (after !== null) {
      const at = this.boardIndex(after.member);
      start =
        at !== null && String(this.scores[at]) === after.score
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
    const at = this.indexOf.get(player);
    const data = at === undefined ? null : this.rows[at]!;
    const index = this.boardIndex(player);
    if (index === null) return { data, index: null, board: this.slice(0, 0) };
    return { data, index, board: this.slice(Math.max(0, index - around), index + around + 1) };
  }

  /** The player's index in board order, or null when not ranked (or not there). */
  private boardIndex(player: string): number | null {
    const at = this.indexOf.get(player);
    const index = at === undefined ? -1 : this.boardIndexOf[at]!;
    return index === -1 ? null : index;
  }

  /** Rows [start, end) in board order, with the first one's competition rank. */
  private slice(start: number, end: number): BoardPart {
    const items: { member: string; score: string; data: string }[] = [];
    for (let i = start; i < Math.min(end, this.order.length); i++) {
      const at = this.order[i]!;
      items.push({
        member: this.members[at]!,
        score: String(this.scores[i]),
        data: this.rows[at]!,
      });
    }
    const firstRank = items.length === 0 ? 0 : this.countUpTo(this.scores[start]!, false) + 1;
    return { start, firstRank, total: this.order.length, items };
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
