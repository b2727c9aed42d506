import type { Skill } from './skill-model.js';

// openskill 5.0.1's `rate` with its defaults (Plackett-Luce, τ = 25/300, β = 25/6, κ = 1e-4, no
// sigma limit, no balance, no margin), written without its generic plumbing: openskill builds
// its constants, spreads every rating into fresh objects and sorts through tuples on each call,
// which made it a quarter of a rebuild's fold. Every floating-point operation is the library's,
// in the library's order, so the results are the same numbers to the last bit; a property test
// (plackett-luce.spec.ts) holds it to openskill itself, so an upgrade of the library that moves
// a number fails there first.

const TAU = 25 / 300;
const TAU_SQUARED = TAU * TAU;
const BETA = 25 / 6;
/** openskill's default performance spread β², half the prior's sigma squared (25/6)². */
export const BETA_SQUARED = BETA ** 2;
const KAPPA = 1e-4;

/**
 * The ratings after a game: `teams` (one array of players per side) finished in the places
 * `rank` gives (lower is better, equal places drew). Returns each side's new ratings, in the
 * order given.
 */
export function plackettLuce(
  teams: readonly (readonly Skill[])[],
  rank: readonly number[],
): Skill[][] {
  const n = teams.length;
  // The sides in order of place; equal places keep their order (openskill's stable sort).
  const order: number[] = [];
  for (let i = 0; i < n; i++) order.push(i);
  order.sort((a, b) => rank[a]! - rank[b]!);
  // Each side's place among the sorted ones: the index of the first side of its place.
  const places: number[] = [];
  let s = 0;
  for (let j = 0; j < n; j++) {
    if (j > 0 && rank[order[j - 1]!]! < rank[order[j]!]!) s = j;
    places.push(s);
  }
  // Uncertainty grown by τ before the game, then each side's summed mean and variance.
  const sigmas: number[][] = [];
  const muSums: number[] = [];
  const sigmaSqSums: number[] = [];
  for (let j = 0; j < n; j++) {
    const team = teams[order[j]!]!;
    const grown: number[] = [];
    let mu = 0;
    let sigSq = 0;
    for (const p of team) {
      const sigma = Math.sqrt(p.sigma * p.sigma + TAU_SQUARED);
      grown.push(sigma);
      mu += p.mu;
      sigSq += sigma * sigma;
    }
    sigmas.push(grown);
    muSums.push(mu);
    sigmaSqSums.push(sigSq);
  }
  let spread = 0;
  for (let j = 0; j < n; j++) spread += sigmaSqSums[j]! + BETA_SQUARED;
  const c = Math.sqrt(spread);
  // For each place q: the sum of exp(mu / c) over the sides placed at q or below it; and how
  // many sides share q's place.
  const sumQ: number[] = [];
  const shared: number[] = [];
  for (let q = 0; q < n; q++) {
    let sum = 0;
    let same = 0;
    for (let i = 0; i < n; i++) {
      if (places[i]! >= places[q]!) sum += Math.exp(muSums[i]! / c);
      if (places[i] === places[q]) same++;
    }
    sumQ.push(sum);
    shared.push(same);
  }
  const result: Skill[][] = new Array<Skill[]>(n);
  for (let i = 0; i < n; i++) {
    const iMuOverCe = Math.exp(muSums[i]! / c);
    let omegaSum = 0;
    let deltaSum = 0;
    for (let q = 0; q < n; q++) {
      if (places[q]! > places[i]!) continue;
      const quotient = iMuOverCe / sumQ[q]!;
      omegaSum += (i === q ? 1 - quotient : -quotient) / shared[q]!;
      deltaSum += (quotient * (1 - quotient)) / shared[q]!;
    }
    const iSigmaSq = sigmaSqSums[i]!;
    const iGamma = Math.sqrt(iSigmaSq) / c;
    const iOmega = omegaSum * (iSigmaSq / c);
    const iDelta = deltaSum * (iSigmaSq / c ** 2) * iGamma;
    const team = teams[order[i]!]!;
    const grown = sigmas[i]!;
    const after: Skill[] = [];
    for (let k = 0; k < team.length; k++) {
      const sigma = grown[k]!;
      after.push({
        mu: team[k]!.mu + (sigma ** 2 / iSigmaSq) * iOmega,
        sigma: sigma * Math.sqrt(Math.max(1 - (sigma ** 2 / iSigmaSq) * iDelta, KAPPA)),
      });
    }
    result[order[i]!] = after;
  }
  return result;
}
