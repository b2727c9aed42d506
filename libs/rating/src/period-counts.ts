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
 * Adds `by` to the key's count (inserted in key order when new), in counts the caller owns (a
 * fold's own player record, whose arrays and entries nobody else holds): the count changes in
 * place, so a game allocates nothing that outlives it. Scanned from the newest: games come in
 * time order, so the key is nearly always the newest one (an identity check on the calendar's
 * interned keys) or newer still (one comparison). The shared empty `NO_COUNTS` and any empty array are never written to: a new array
 * comes back for them.
 */
export function addInPlace(counts: PeriodCounts, key: string, by: number): PeriodCounts {
  if (by === 0) return counts;
  if (counts.length === 0) return [{ key, count: by }];
  const owned = counts as { key: string; count: number }[];
  let at = owned.length;
  while (at > 0 && owned[at - 1]!.key !== key && owned[at - 1]!.key > key) at--;
  const same = owned[at - 1];
  if (same !== undefined && same.key === key) same.count += by;
  else owned.splice(at, 0, { key, count: by });
  return owned;
}

/** A copy whose array and entries are the copy's own (see `addInPlace`). */
export const ownCounts = (counts: PeriodCounts): PeriodCounts =>
  counts.map((c) => ({ key: c.key, count: c.count }));

/** Drops the counts of `key` and of every older key; returns the same array when nothing goes. */
export function forgetThrough(counts: PeriodCounts, key: string): PeriodCounts {
  return counts.length > 0 && counts[0]!.key <= key ? counts.filter((c) => c.key > key) : counts;
}

/** Drops the counts that are not above 0; returns the same array when nothing goes. */
export function keepPositive(counts: PeriodCounts): PeriodCounts {
  for (const c of counts) if (c.count <= 0) return counts.filter((k) => k.count > 0);
  return counts;
}
