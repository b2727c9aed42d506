import {
  addInPlace,
  countIn,
  NO_COUNTS,
  ownCounts,
  type PeriodCount,
  type PeriodCounts,
} from './period-counts.js';

/** Cells a player: the older of its two newest periods' key and count, then the newer one's. */
const STRIDE = 4;
const NONE = -1;
const FIRST_CAPACITY = 64;

/**
 * One kind of period counts (games a week, games a month, captures a day) of a table's players,
 * as fixed columns: each row holds the player's two newest periods as (key, count) pairs in one
 * typed array, keys numbered in a dictionary. Games come in time order, so adding a game's
 * count touches one cache line of flat memory instead of following a player's array to its
 * entries, scattered over the heap. Older periods (the closes forget them; a log folded
 * without its clock keeps them all) stay in an array of the player's own, in key order, which
 * only a late game, a correction or a close reads. What comes out (`get`) is what the arrays
 * of `addInPlace` held: entries in key order, a count of 0 kept.
 */
export class PeriodColumns {
  private cells = new Float64Array(FIRST_CAPACITY * STRIDE).fill(NONE);
  /** Per player with more than two periods: the ones before its two newest, in key order. */
  private readonly older = new Map<number, PeriodCounts>();
  private readonly keys: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Games come in time order: the calendar's key is nearly always the last one looked up. */
  private lastKey = '';
  private lastId = NONE;

  /** Makes room for players up to `capacity` (a table grows by doubling). */
  grow(capacity: number): void {
    if (capacity * STRIDE <= this.cells.length) return;
    const cells = new Float64Array(capacity * STRIDE).fill(NONE);
    cells.set(this.cells);
    this.cells = cells;
  }

  /** Player `i`'s counts, in key order (a fresh array). */
  get(i: number): PeriodCounts {
    const r = i * STRIDE;
    const cells = this.cells;
    const a = cells[r]!;
    if (a === NONE) return NO_COUNTS;
    const older = this.older.get(i);
    const counts: PeriodCount[] = older === undefined ? [] : [...ownCounts(older)];
    counts.push({ key: this.keys[a]!, count: cells[r + 1]! });
    const b = cells[r + 2]!;
    if (b !== NONE) counts.push({ key: this.keys[b]!, count: cells[r + 3]! });
    return counts;
  }

  /** Sets player `i`'s counts (copied). */
  set(i: number, counts: PeriodCounts): void {
    const r = i * STRIDE;
    const cells = this.cells;
    cells[r] = NONE;
    cells[r + 1] = 0;
    cells[r + 2] = NONE;
    cells[r + 3] = 0;
    const n = counts.length;
    if (n > 2) this.older.set(i, ownCounts(counts.slice(0, n - 2)));
    else this.older.delete(i);
    const from = Math.max(n - 2, 0);
    for (let k = from; k < n; k++) {
      cells[r + 2 * (k - from)] = this.idOf(counts[k]!.key);
      cells[r + 2 * (k - from) + 1] = counts[k]!.count;
    }
  }

  /** Player `i`'s count of `key` (0 when none). */
  count(i: number, key: string): number {
    const r = i * STRIDE;
    const cells = this.cells;
    if (cells[r] === NONE) return 0;
    // A key only ever held among the older periods may have no number.
    const id = this.ids.get(key);
    if (id !== undefined) {
      if (cells[r] === id) return cells[r + 1]!;
      if (cells[r + 2] === id) return cells[r + 3]!;
    }
    const older = this.older.get(i);
    return older === undefined ? 0 : countIn(older, key);
  }

  /** Adds `by` to player `i`'s count of `key`, inserted in key order when new (`addInPlace`). */
  add(i: number, key: string, by: number): void {
    if (by === 0) return;
    const r = i * STRIDE;
    const cells = this.cells;
    const id = this.idOf(key);
    const a = cells[r]!;
    if (a === id) cells[r + 1] = cells[r + 1]! + by;
    else if (cells[r + 2] === id) cells[r + 3] = cells[r + 3]! + by;
    else if (a === NONE) {
      cells[r] = id;
      cells[r + 1] = by;
    } else if (cells[r + 2] === NONE) {
      // A second period, in key order with the first.
      if (key > this.keys[a]!) {
        cells[r + 2] = id;
        cells[r + 3] = by;
      } else {
        cells[r + 2] = a;
        cells[r + 3] = cells[r + 1]!;
        cells[r] = id;
        cells[r + 1] = by;
      }
    } else if (key > this.keys[a]!) {
      // One of the two newest now: the older of them moves to the player's array.
      this.retire(i, a, cells[r + 1]!);
      if (key > this.keys[cells[r + 2]!]!) {
        cells[r] = cells[r + 2]!;
        cells[r + 1] = cells[r + 3]!;
        cells[r + 2] = id;
        cells[r + 3] = by;
      } else {
        cells[r] = id;
        cells[r + 1] = by;
      }
    } else this.older.set(i, addInPlace(this.older.get(i) ?? [], key, by));
  }

  /** Appends a period to player `i`'s older ones (it is newer than all of them). */
  private retire(i: number, id: number, count: number): void {
    const older = this.older.get(i) as { key: string; count: number }[] | undefined;
    const entry = { key: this.keys[id]!, count };
    if (older === undefined) this.older.set(i, [entry]);
    else older.push(entry);
  }

  private idOf(key: string): number {
    if (key === this.lastKey) return this.lastId;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.ids.set(key, id);
    }
    this.lastKey = key;
    this.lastId = id;
    return id;
  }
}
