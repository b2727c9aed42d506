import {
  addTo,
  countIn,
  forgetBefore,
  forgetThrough,
  NO_COUNTS,
  type PeriodCounts,
} from './index.js';

// Period counts are immutable short arrays sorted by key; addTo builds its copy by index.

const c = (...pairs: [string, number][]): PeriodCounts =>
  pairs.map(([key, count]) => ({ key, count }));

describe('addTo', () => {
  it.each<[string, PeriodCounts, string, number, PeriodCounts]>([
    ['a first key', NO_COUNTS, '2026-W48', 1, c(['2026-W48', 1])],
    ['to the only key', c(['2026-W48', 3]), '2026-W48', 1, c(['2026-W48', 4])],
    [
      'a newer key, appended',
      c(['2026-W48', 3]),
      '2026-W49',
      1,
      c(['2026-W48', 3], ['2026-W49', 1]),
    ],
    [
      'an older key, put first',
      c(['2026-W49', 2]),
      '2026-W48',
      1,
      c(['2026-W48', 1], ['2026-W49', 2]),
    ],
    [
      'a key between two, in order',
      c(['2026-W47', 1], ['2026-W49', 2]),
      '2026-W48',
      5,
      c(['2026-W47', 1], ['2026-W48', 5], ['2026-W49', 2]),
    ],
    [
      'to the first of two',
      c(['2026-W48', 1], ['2026-W49', 2]),
      '2026-W48',
      1,
      c(['2026-W48', 2], ['2026-W49', 2]),
    ],
    [
      'a take-back to zero keeps the key',
      c(['2026-W48', 1], ['2026-W49', 2]),
      '2026-W49',
      -2,
      c(['2026-W48', 1], ['2026-W49', 0]),
    ],
  ])('adds %s', (_, counts, key, by, expected) => {
    const before = JSON.stringify(counts);
    const added = addTo(counts, key, by);
    expect(added).toEqual(expected);
    // A dense array (no holes), and the input left as it was.
    expect(Object.keys(added)).toHaveLength(expected.length);
    expect(JSON.stringify(counts)).toBe(before);
  });

  it('returns the same array when adding 0', () => {
    const counts = c(['2026-11', 2]);
    expect(addTo(counts, '2026-12', 0)).toBe(counts);
  });
});

describe('countIn, forgetThrough and forgetBefore', () => {
  const counts = c(['2026-W47', 1], ['2026-W48', 2], ['2026-W49', 3]);

  it('reads a key, 0 for a missing one', () => {
    expect(countIn(counts, '2026-W48')).toBe(2);
    expect(countIn(counts, '2026-W50')).toBe(0);
  });

  it('forgets through a key, or before it', () => {
    expect(forgetThrough(counts, '2026-W48')).toEqual(c(['2026-W49', 3]));
    expect(forgetBefore(counts, '2026-W48')).toEqual(c(['2026-W48', 2], ['2026-W49', 3]));
    expect(forgetThrough(counts, '2026-W46')).toBe(counts);
  });
});
