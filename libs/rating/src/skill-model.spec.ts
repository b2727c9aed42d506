import fc from 'fast-check';
import { rate, rating } from 'openskill';
import {
  openskillWinProbabilities,
  type Skill,
  SKILL_PRIOR,
  winProbabilities,
} from './skill-model.js';

// The estimate's predicted chances (ADR 19): the Plackett-Luce model that rates the games.

const skillArb = fc.record({
  mu: fc.double({ min: -20, max: 70, noNaN: true }),
  sigma: fc.double({ min: 0.5, max: 9, noNaN: true }),
});
const sideArb = fc.array(skillArb, { minLength: 1, maxLength: 2 });

describe('winProbabilities', () => {
  it('Given two equal sides, Then each has an even chance', () => {
    expect(winProbabilities([[SKILL_PRIOR], [SKILL_PRIOR]])).toEqual([0.5, 0.5]);
  });

  it('Given two players, Then the chance is logistic in the mean difference over √(σa² + σb² + 2β²)', () => {
    const a: Skill = { mu: 30, sigma: 2 };
    const b: Skill = { mu: 24, sigma: 3 };
    const c = Math.sqrt(4 + 9 + 2 * (25 / 6) ** 2);
    const [pa, pb] = winProbabilities([[a], [b]]);
    expect(pa).toBeCloseTo(1 / (1 + Math.exp(-6 / c)), 15);
    expect(pb).toBeCloseTo(1 - pa!, 15);
  });

  it('Given any sides, Then the chances sum to 1, follow the summed means, and swap with the sides', () => {
    fc.assert(
      fc.property(fc.array(sideArb, { minLength: 2, maxLength: 4 }), (sides) => {
        const p = winProbabilities(sides);
        expect(p.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
        const sum = (side: Skill[]) => side.reduce((s, x) => s + x.mu, 0);
        for (let i = 0; i < sides.length; i++)
          for (let j = 0; j < sides.length; j++)
            if (sum(sides[i]!) > sum(sides[j]!)) expect(p[i]).toBeGreaterThanOrEqual(p[j]!);
        const reversed = winProbabilities([...sides].reverse()).reverse();
        reversed.forEach((q, i) => expect(q).toBeCloseTo(p[i]!, 12));
      }),
      { numRuns: 200 },
    );
  });

  it('Given a win that the model expected, Then the winner gains less than after an upset, as its chance says', () => {
    // The chance and the update come from one model: the surer the win, the smaller the step.
    const strong = rating({ mu: 32, sigma: 4 });
    const weak = rating({ mu: 20, sigma: 4 });
    const [expectedWin] = winProbabilities([[strong], [weak]]);
    const [[afterWin]] = rate([[strong], [weak]], { rank: [1, 2] });
    const [, [afterUpset]] = rate([[strong], [weak]], { rank: [2, 1] });
    expect(expectedWin).toBeGreaterThan(0.75);
    expect(afterWin.mu - strong.mu).toBeLessThan(afterUpset.mu - weak.mu);
  });

  it('Given a clear favourite, Then openskill’s predictWin (a normal curve) is surer than the model', () => {
    const sides = [[{ mu: 35, sigma: 2 }], [{ mu: 25, sigma: 2 }]];
    expect(openskillWinProbabilities(sides)[0]).toBeGreaterThan(winProbabilities(sides)[0]!);
  });
});
