import fc from 'fast-check';
import { rate, rating } from 'openskill';
import { plackettLuce } from './plackett-luce.js';
import type { Skill } from './skill-model.js';

// The estimate's update is openskill's `rate` (Plackett-Luce, defaults) written out: the same
// numbers to the last bit, or snapshots, the rating service and replays would disagree with
// what earlier versions stored.

const skillArb = fc.record({
  mu: fc.double({ min: -50, max: 100, noNaN: true }),
  sigma: fc.double({ min: 0.01, max: 12, noNaN: true }),
});

/** Sides of 1 to 4 players, 1 to 6 sides, with places that may tie and come in any order. */
const gameArb = fc
  .array(fc.array(skillArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 })
  .chain((teams) =>
    fc.record({
      teams: fc.constant(teams),
      rank: fc.array(fc.integer({ min: 1, max: 4 }), {
        minLength: teams.length,
        maxLength: teams.length,
      }),
    }),
  );

/** Each number as its exact bits, so that -0, 0 and the last place all count. */
const bits = (teams: readonly (readonly Skill[])[]) =>
  teams.map((team) => team.map(({ mu, sigma }) => [Object.is(mu, -0) ? '-0' : mu, sigma]));

describe('plackettLuce', () => {
  it("Given any game, When rated, Then every mean and uncertainty is openskill's to the bit", () => {
    fc.assert(
      fc.property(gameArb, ({ teams, rank }) => {
        expect(bits(plackettLuce(teams, rank))).toStrictEqual(
          bits(
            rate(
              teams.map((t) => [...t]),
              { rank: [...rank] },
            ),
          ),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('Given two new players and a win, Then the winner gains what openskill gives', () => {
    const prior = rating();
    const [[winner], [loser]] = plackettLuce([[prior], [prior]], [1, 2]) as [Skill[], Skill[]];
    const [[w], [l]] = rate([[prior], [prior]], { rank: [1, 2] }) as [Skill[], Skill[]];
    expect(winner).toStrictEqual(w);
    expect(loser).toStrictEqual(l);
    expect(winner!.mu).toBeGreaterThan(prior.mu);
    expect(loser!.mu).toBeLessThan(prior.mu);
  });

  it('Given places out of order, When rated, Then each side keeps its own result', () => {
    const a: Skill = { mu: 30, sigma: 3 };
    const b: Skill = { mu: 20, sigma: 5 };
    const [[first], [second]] = plackettLuce([[a], [b]], [2, 1]) as [Skill[], Skill[]];
    expect(first!.mu).toBeLessThan(a.mu);
    expect(second!.mu).toBeGreaterThan(b.mu);
  });
});
