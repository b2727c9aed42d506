import { predictDraw, predictWin, rate, rating } from 'openskill';
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
 * The estimates after a game (openskill's Plackett-Luce model with its defaults), per player in
 * the event's order; players outside every side keep theirs.
 */
export function rateMatch(before: readonly Skill[], match: SkillMatch): Skill[] {
  const teams = match.sides.map((side) => side.map((i) => before[i]!));
  const rated = rate(teams, { rank: [...match.places] });
  const after = [...before];
  match.sides.forEach((side, s) =>
    side.forEach((i, k) => {
      const r = rated[s]![k]!;
      after[i] = { mu: r.mu, sigma: r.sigma };
    }),
  );
  return after;
}

/** Each side's chance to win (they sum to 1). */
export function winProbabilities(sides: readonly (readonly Skill[])[]): number[] {
  return predictWin(sides.map((side) => [...side]));
}

/**
 * How even a proposed game is, 0..1: openskill's draw probability, the match quality of
 * TrueSkill-style systems (highest when the sides are equal and their estimates sure).
 */
export function matchQuality(sides: readonly (readonly Skill[])[]): number {
  return predictDraw(sides.map((side) => [...side]));
}
