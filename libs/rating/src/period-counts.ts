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

/** A copy with `by` added to the key's count (inserted in key order when new). */
export function addTo(counts: PeriodCounts, key: string, by: number): PeriodCounts {
  if (by === 0) return counts;
  const out: PeriodCount[] = [];
  let placed = false;
  for (const c of counts) {
    if (!placed && c.key === key) {
      out.push({ key, count: c.count + by });
      placed = true;
      continue;
    }
    if (!placed && c.key > key) {
      out.push({ key, count: by });
      placed = true;
    }
    out.push(c);
  }
  if (!placed) out.push({ key, count: by });
  return out;
}

/** Drops the counts of `key` and of every older key; returns the same array when nothing goes. */
export function forgetThrough(counts: PeriodCounts, key: string): PeriodCounts {
  return counts.length > 0 && counts[0]!.key <= key ? counts.filter((c) => c.key > key) : counts;
}

/** Drops the counts older than `key` (the key's own stays). */
export function forgetBefore(counts: PeriodCounts, key: string): PeriodCounts {
  return counts.length > 0 && counts[0]!.key < key ? counts.filter((c) => c.key >= key) : counts;
}
