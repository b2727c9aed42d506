import {
  addInPlace,
  countIn,
  forgetThrough,
  keepPositive,
  NO_COUNTS,
  type PeriodCounts,
} from './index.js';

// Period counts are short arrays sorted by key; a fold's own player record changes its own in
// place (addInPlace), never the shared empty one.

const c = (...pairs: [string, number][]): PeriodCounts =>
  pairs.map(([key, count]) => ({ key, count }));

describe('addInPlace', () => {
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
    const owned =
      counts === NO_COUNTS ? counts : c(...counts.map((e) => [e.key, e.count] as [string, number]));
    const added = addInPlace(owned, key, by);
    expect(added).toEqual(expected);
    // A dense array (no holes); the record's own array changed in place, the shared empty one never.
    expect(Object.keys(added)).toHaveLength(expected.length);
    if (counts === NO_COUNTS) expect(NO_COUNTS).toEqual([]);
    else expect(added).toBe(owned);
  });

  it('returns the same array when adding 0', () => {
    const counts = c(['2026-11', 2]);
    expect(addInPlace(counts, '2026-12', 0)).toBe(counts);
    expect(counts).toEqual(c(['2026-11', 2]));
  });
});

describe('countIn, forgetThrough and keepPositive', () => {
  const counts = c(['2026-W47', 1], ['2026-W48', 2], ['2026-W49', 3]);

  it('reads a key, 0 for a missing one', () => {
    expect(countIn(counts, '2026-W48')).toBe(2);
    expect(countIn(counts, '2026-W50')).toBe(0);
  });

  it('forgets through a key', () => {
    expect(forgetThrough(counts, '2026-W48')).toEqual(c(['2026-W49', 3]));
    expect(forgetThrough(counts, '2026-W46')).toBe(counts);
  });

  it('keeps the counts above 0, the same array when all are', () => {
    expect(keepPositive(counts)).toBe(counts);
    const taken = c(['2026-03-01', 4], ['2026-03-02', 0], ['2026-03-03', -1], ['2026-03-04', 2]);
    expect(keepPositive(taken)).toEqual(c(['2026-03-01', 4], ['2026-03-04', 2]));
  });
});
