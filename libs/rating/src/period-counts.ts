/**
 * Counts per period key (week, month or day), kept as a short array sorted by key: a player
 * has one or two open periods at a time, and small arrays of one shape are far cheaper to copy
 * than objects with computed keys. Keys of one shape sort in time order.
 */
export interface PeriodCount {
  readonly key: string;
  readonly count: number;
}

export type PeriodCounts = readonly PeriodCount[];

export const NO_COUNTS: PeriodCounts = Object.freeze([]);

export function countIn(counts: PeriodCounts, key: string): number {
  for (const c of counts) if (c.key === key) return c.count;
  return 0;
}

/**
 * A copy with `by` added to the key's count (inserted in key order when new). The copy is a
 * packed array of its exact length (`map`, `concat`): a player state keeps it until the next
 * game, so an array grown by push would carry spare slots all that time, and one made by
 * `new Array(n)` is holey, which JSON.stringify (the rows written to PostgreSQL) takes slowly.
 */
export function addTo(counts: PeriodCounts, key: string, by: number): PeriodCounts {
  if (by === 0) return counts;
  // Scanned from the newest: games come in time order, so the key is nearly always the newest
  // one (an identity check on the calendar's interned keys) or newer still (one comparison).
  let at = counts.length;
  while (at > 0 && counts[at - 1]!.key !== key && counts[at - 1]!.key > key) at--;
  const same = at - 1;
  if (same >= 0 && counts[same]!.key === key)
    return counts.map((c, i) => (i === same ? { key, count: c.count + by } : c));
  return counts.slice(0, at).concat([{ key, count: by }], counts.slice(at));
}

/** Drops the counts of `key` and of every older key; returns the same array when nothing goes. */
export function forgetThrough(counts: PeriodCounts, key: string): PeriodCounts {
  return counts.length > 0 && counts[0]!.key <= key ? counts.filter((c) => c.key > key) : counts;
}

/** Drops the counts older than `key` (the key's own stays). */
export function forgetBefore(counts: PeriodCounts, key: string): PeriodCounts {
  return counts.length > 0 && counts[0]!.key < key ? counts.filter((c) => c.key >= key) : counts;
}
