/**
 * Kendall's tau-b between two rankings of the same items (`x[i]` and `y[i]` belong to item i),
 * by Knight's algorithm: sort by x (ties by y), then count the discordant pairs as the swaps a
 * merge sort by y makes, and the ties from the runs of equal values. O(n log n), so two boards
 * of 100,000 players compare in milliseconds where the pairwise count takes minutes. Ties in
 * either ranking count as tau-b says; null when it is undefined (fewer than two items, or every
 * item tied in one ranking).
 */
export function kendallTau(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = x.length;
  if (y.length !== n) throw new Error(`kendallTau: ${n} x values but ${y.length} y values`);
  if (n < 2) return null;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!);
  const pairs = (n * (n - 1)) / 2;
  // Pairs tied in x, and tied in both: runs of the (x, y) order.
  let tiedX = 0;
  let tiedBoth = 0;
  for (let i = 0, runX = 1, runBoth = 1; i < n; i++) {
    const next = i + 1 < n ? order[i + 1]! : -1;
    const sameX = next >= 0 && x[next] === x[order[i]!];
    const sameBoth = sameX && y[next] === y[order[i]!];
    if (sameBoth) runBoth++;
    else {
      tiedBoth += (runBoth * (runBoth - 1)) / 2;
      runBoth = 1;
    }
    if (sameX) runX++;
    else {
      tiedX += (runX * (runX - 1)) / 2;
      runX = 1;
    }
  }
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) ys[i] = y[order[i]!]!;
  const swaps = mergeSortSwaps(ys);
  // ys is sorted now: pairs tied in y are its runs.
  let tiedY = 0;
  for (let i = 0, run = 1; i < n; i++) {
    if (i + 1 < n && ys[i + 1] === ys[i]) run++;
    else {
      tiedY += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  if (denominator === 0) return null;
  // Concordant minus discordant pairs (neither kind counts a tie).
  const score = pairs - tiedX - tiedY + tiedBoth - 2 * swaps;
  return score / denominator;
}

/**
 * Sorts `values` ascending in place (a bottom-up merge sort, stable) and returns the number of
 * inversions it undid: pairs i < j with values[i] > values[j] (equal values are no inversion).
 */
function mergeSortSwaps(values: Float64Array): number {
  const n = values.length;
  let from: Float64Array = values;
  let to: Float64Array = new Float64Array(n);
  let swaps = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (from[j]! < from[i]!) {
          // Every value left in the first half is greater: each makes an inversion with it.
          swaps += mid - i;
          to[k++] = from[j++]!;
        } else to[k++] = from[i++]!;
      }
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
  }
  if (from !== values) values.set(from);
  return swaps;
}

/**
 * Tau-b by its definition, over every pair: O(n²), the reference `kendallTau` must equal (its
 * tests) and the naive baseline it is measured against (bench/whatif.bench.ts).
 */
export function kendallTauPairwise(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  let concordant = 0;
  let discordant = 0;
  let onlyX = 0;
  let onlyY = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) onlyX++;
      else if (dy === 0) onlyY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  const denominator = Math.sqrt(
    (concordant + discordant + onlyX) * (concordant + discordant + onlyY),
  );
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}
