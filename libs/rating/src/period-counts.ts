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
 * A copy with `by` added to the key's count (inserted in key order when new). The copy is
 * sized up front and filled by index: a player state keeps it until the next game, and an
 * array grown by push would carry spare capacity (and cost a reallocation) all that time.
 */
export function addTo(counts: PeriodCounts, key: string, by: number): PeriodCounts {
  if (by === 0) return counts;
  const n = counts.length;
  let at = 0;
  while (at < n && counts[at]!.key < key) at++;
  const present = at < n && counts[at]!.key === key;
  const out = new Array<PeriodCount>(present ? n : n + 1);
  for (let i = 0; i < at; i++) out[i] = counts[i]!;
  if (present) {
    out[at] = { key, count: counts[at]!.count + by };
    for (let i = at + 1; i < n; i++) out[i] = counts[i]!;
  } else {
    out[at] = { key, count: by };
    for (let i = at; i < n; i++) out[i + 1] = counts[i]!;
  }
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
