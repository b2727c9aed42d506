import { ELO_SCALE } from './outside-strength.js';

/** One decisive game of a run: the beneficiary's expected score logit and its uncertainty. */
export interface RunGame {
  /** The beneficiary's strength minus the feeder's, on the Elo scale (already rescaled). */
  readonly gap: number;
  /** The gap's standard error, same scale. */
  readonly error: number;
}

/** Points of the quadrature over the gaps' common error, in standard deviations. */
const NODES = Array.from({ length: 41 }, (_, k) => -5 + k * 0.25);
const WEIGHTS = (() => {
  const raw = NODES.map((u) => Math.exp(-0.5 * u * u));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
})();

/** P(X ≥ won) for X the number of wins of independent games with these chances (exact). */
function upperTail(chances: readonly number[], won: number): number {
  let dist = new Float64Array(chances.length + 1);
  dist[0] = 1;
  chances.forEach((p, n) => {
    const next = new Float64Array(chances.length + 1);
    for (let k = 0; k <= n; k++) {
      next[k] = next[k]! + dist[k]! * (1 - p);
      next[k + 1] = next[k + 1]! + dist[k]! * p;
    }
    dist = next;
  });
  let tail = 0;
  for (let k = won; k <= chances.length; k++) tail += dist[k]!;
  return tail;
}

/**
 * The chance of a record at least this good for the beneficiary if the pair played honestly:
 * exact over the games (a sum of unequal coins, Poisson-binomial), and averaged over what the
 * strengths may truly be. Each game's gap may be off by its error, all in the same direction
 * (the same two players), so the average is over one common shift, in standard errors.
 */
export function honestRecordChance(games: readonly RunGame[], won: number): number {
  let chance = 0;
  NODES.forEach((u, k) => {
    const chances = games.map((g) => 1 / (1 + Math.exp(-(g.gap + u * g.error) / ELO_SCALE)));
    chance += WEIGHTS[k]! * upperTail(chances, won);
  });
  return Math.min(1, chance);
}
