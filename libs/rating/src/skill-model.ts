import { predictDraw, predictWin, rating } from 'openskill';
import { BETA_SQUARED, plackettLuce } from './plackett-luce.js';
import type { SkillMatch } from './skill-match.js';

/**
 * A Bayesian estimate of a player's strength (Weng-Lin, through `openskill`): mean and
 * uncertainty, on openskill's scale (a new player is 25 ± 8.33).
 */
export interface Skill {
  readonly mu: number;
  readonly sigma: number;
}

/** What the estimate assumes of a player it has not seen play. */
export const SKILL_PRIOR: Skill = Object.freeze(rating());

/**
 * The estimates after a game (openskill's Plackett-Luce model with its defaults, the same
 * numbers as its `rate`: plackett-luce.ts), per player in the event's order; players outside
 * every side keep theirs.
 */
export function rateMatch(before: readonly Skill[], match: SkillMatch): Skill[] {
  const { sides } = match;
  const teams: Skill[][] = [];
  for (const side of sides) {
    const team: Skill[] = [];
    for (const i of side) team.push(before[i]!);
    teams.push(team);
  }
  const rated = plackettLuce(teams, match.places);
  const after = [...before];
  // The results are fresh {mu, sigma} objects: kept as they are.
  for (let s = 0; s < sides.length; s++) {
    const side = sides[s]!;
    for (let k = 0; k < side.length; k++) after[side[k]!] = rated[s]![k]!;
  }
  return after;
}

/**
 * Each side's chance to finish first (they sum to 1), as the model that rates the games says
 * it: Plackett-Luce on the sides' summed means, over c = √Σ(σ²_side + β²), the scale its updates
 * use. openskill's predictWin puts the same differences through a normal curve over a smaller
 * scale, which is over-confident for estimates rated this way: its log loss on a simulated
 * stream was 0.02-0.04 worse on every ladder (bench/skill-quality.bench.ts, ADR 19).
 */
export function winProbabilities(sides: readonly (readonly Skill[])[]): number[] {
  let spread = 0;
  const means = sides.map((side) => {
    let mu = 0;
    for (const s of side) {
      mu += s.mu;
      spread += s.sigma * s.sigma;
    }
    spread += BETA_SQUARED;
    return mu;
  });
  const c = Math.sqrt(spread);
  // exp(mu / c), shifted by the largest mean so that no term overflows.
  const top = Math.max(...means);
  const weights = means.map((mu) => Math.exp((mu - top) / c));
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => w / total);
}

/** openskill's own predictWin (a normal curve): kept to compare with (the quality bench). */
export function openskillWinProbabilities(sides: readonly (readonly Skill[])[]): number[] {
  return predictWin(sides.map((side) => [...side]));
}

/**
 * How even a proposed game is, 0..1: openskill's draw probability, the match quality of
 * TrueSkill-style systems (highest when the sides are equal and their estimates sure).
 */
export function matchQuality(sides: readonly (readonly Skill[])[]): number {
  return predictDraw(sides.map((side) => [...side]));
}
