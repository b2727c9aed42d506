import fc from 'fast-check';
import { kendallTau, kendallTauPairwise } from './kendall-tau.js';

/** Pairs of rankings of one length, with values from a small range (many ties) or a wide one. */
const rankings = fc
  .tuple(fc.integer({ min: 0, max: 120 }), fc.constantFrom(3, 20, 1_000_000))
  .chain(([n, spread]) =>
    fc.tuple(
      fc.array(fc.integer({ min: 0, max: spread }), { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 0, max: spread }), { minLength: n, maxLength: n }),
    ),
  );

describe('kendallTau (Knight)', () => {
  it('equals the pairwise count on random rankings, ties included', () => {
    fc.assert(
      fc.property(rankings, ([x, y]) => {
        const fast = kendallTau(x, y);
        const naive = kendallTauPairwise(x, y);
        if (naive === null) expect(fast).toBeNull();
        else expect(fast).toBeCloseTo(naive, 12);
      }),
      { numRuns: 500 },
    );
  });

  it('given the same ranking twice, then 1; given it reversed, then -1', () => {
    const x = [5, 3, 9, 1, 7];
    expect(kendallTau(x, x)).toBe(1);
    expect(
      kendallTau(
        x,
        x.map((v) => -v),
      ),
    ).toBe(-1);
  });

  it('given a hand-counted case with ties, then its tau-b', () => {
    // Pairs: (1,2) tied in x; (1,3) c; (1,4) c; (2,3) tied in y; (2,4) c; (3,4) c.
    // C = 4, D = 0, n0 = 6, one tie in x, one in y: (4 - 0) / sqrt(5 * 5) = 0.8.
    expect(kendallTau([1, 1, 2, 3], [1, 2, 2, 3])).toBeCloseTo(0.8, 12);
    // (1,2) tied in x; (1,3) c; (1,4) c; (2,3) d; (2,4) d; (3,4) tied in y: (2 - 2) / 5 = 0.
    expect(kendallTau([1, 1, 2, 3], [1, 3, 2, 2])).toBe(0);
  });

  it('given fewer than two items or one ranking all tied, then null', () => {
    expect(kendallTau([], [])).toBeNull();
    expect(kendallTau([1], [2])).toBeNull();
    expect(kendallTau([4, 4, 4], [1, 2, 3])).toBeNull();
  });

  it('given lengths that differ, then it says so', () => {
    expect(() => kendallTau([1, 2], [1])).toThrow('2 x values but 1 y values');
  });
});
