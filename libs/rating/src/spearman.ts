/**
 * Spearman's rank correlation between two measures of the same items (`x[i]` and `y[i]` belong
 * to item i): Pearson's correlation of their ranks, tied values sharing the mean of the ranks
 * they span (official points tie often: the board's titles and levels are coarse). Null when it
 * is undefined (fewer than two items, or every item tied in one measure). npm's libraries
 * either rank ties by input order (simple-statistics) or are not kept up; this is a few lines.
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = x.length;
  if (y.length !== n) throw new Error(`spearman: ${n} x values but ${y.length} y values`);
  if (n < 2) return null;
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  // Both rank vectors have the mean (n + 1) / 2.
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Ranks 1..n by ascending value; a run of equal values gets the mean of its ranks. */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(n);
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && values[order[end]!] === values[order[start]!]) end++;
    // Positions start..end-1 hold ranks start+1..end: their mean.
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]!] = rank;
    start = end;
  }
  return ranks;
}
