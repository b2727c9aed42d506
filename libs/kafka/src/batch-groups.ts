/**
 * Splits a fetch's partition batches into at most `maxGroups` groups, one transaction each.
 * A steady load's small fetch stays one group (one transaction, one commit, for every
 * partition); a backlog's large fetch is spread so that several transactions overlap one
 * batch's fold with another's writes. A group holds at least `minGroupSize` messages unless
 * there are fewer in all, groups are balanced by message count, and each lists its batches in
 * the order given.
 */
export function batchGroups(
  sizes: readonly number[],
  maxGroups: number,
  minGroupSize: number,
): number[][] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const count = Math.max(1, Math.min(maxGroups, sizes.length, Math.floor(total / minGroupSize)));
  const groups = Array.from({ length: count }, () => ({ size: 0, members: [] as number[] }));
  // Largest first into the lightest group: close to even, and deterministic.
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  for (const i of order) {
    const lightest = groups.reduce((min, g) => (g.size < min.size ? g : min));
    lightest.size += sizes[i]!;
    lightest.members.push(i);
  }
  return groups.map((g) => g.members.sort((a, b) => a - b));
}
