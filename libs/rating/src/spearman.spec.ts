import fc from 'fast-check';
import { averageRanks, spearman } from './spearman.js';

describe('spearman', () => {
  it('Given the same measure twice, or one reversed, Then 1 or -1', () => {
    const x = [5, 3, 9, 1, 7];
    expect(spearman(x, x)).toBe(1);
    expect(
      spearman(
        x,
        x.map((v) => -v),
      ),
    ).toBe(-1);
  });

  it('Given ties, Then they share the mean of their ranks', () => {
    expect([...averageRanks([10, 20, 20, 5, 20])]).toEqual([2, 4, 4, 1, 4]);
  });

  it('Given a worked case with a tie, Then its value', () => {
    // y ranks: 1, 2, 3.5, 5, 3.5 against 1..5: Σdxdy = 8, Σdx² = 10, Σdy² = 9.5 → 8 / √95.
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(8 / Math.sqrt(95), 15);
  });

  it('Given fewer than two items, or one measure all tied, Then null', () => {
    expect(spearman([], [])).toBeNull();
    expect(spearman([1], [2])).toBeNull();
    expect(spearman([1, 2, 3], [4, 4, 4])).toBeNull();
    expect(() => spearman([1, 2], [1])).toThrow('spearman: 2 x values but 1 y values');
  });

  it('Given any measures, Then it is symmetric, within [-1, 1], and unchanged by a monotone map of either', () => {
    const pairs = fc
      .integer({ min: 2, max: 60 })
      .chain((n) =>
        fc.tuple(
          fc.array(fc.integer({ min: -5, max: 5 }), { minLength: n, maxLength: n }),
          fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: n, maxLength: n }),
        ),
      );
    fc.assert(
      fc.property(pairs, ([x, y]) => {
        const r = spearman(x, y);
        expect(spearman(y, x)).toBe(r);
        if (r === null) return;
        expect(Math.abs(r)).toBeLessThanOrEqual(1 + 1e-12);
        expect(
          spearman(
            x.map((v) => v ** 3 + 2 * v),
            y,
          ),
        ).toBeCloseTo(r, 12);
      }),
      { numRuns: 300 },
    );
  });
});
