import fc from 'fast-check';
import { PeriodColumns } from './period-columns.js';
import { addInPlace, countIn, NO_COUNTS, ownCounts, type PeriodCounts } from './period-counts.js';

// The fold keeps its players' period counts in columns (two open periods a row) instead of an
// array a player: whatever happens to them, they must read exactly as the arrays would have.

const KEYS = ['2026-W45', '2026-W46', '2026-W47', '2026-W48', '2026-W49'];
const keyArb = fc.constantFrom(...KEYS);
const countsArb: fc.Arbitrary<PeriodCounts> = fc
  .uniqueArray(keyArb, { maxLength: 4 })
  .chain((keys) =>
    fc.tuple(
      fc.constant([...keys].sort()),
      fc.array(fc.integer({ min: -3, max: 9 }), { minLength: keys.length, maxLength: keys.length }),
    ),
  )
  .map(([keys, counts]) => keys.map((key, k) => ({ key, count: counts[k]! })));

type Op =
  | { kind: 'add'; player: number; key: string; by: number }
  | { kind: 'set'; player: number; counts: PeriodCounts };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      player: fc.nat(69),
      key: keyArb,
      by: fc.integer({ min: -2, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      player: fc.nat(69),
      counts: countsArb,
    }),
  },
);

describe('PeriodColumns', () => {
  it('Given any adds and sets, When read, Then every player has what addInPlace on an array gives', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), (ops) => {
        const columns = new PeriodColumns();
        columns.grow(128);
        const arrays = new Map<number, PeriodCounts>();
        for (const op of ops) {
          const was = arrays.get(op.player) ?? NO_COUNTS;
          if (op.kind === 'add') {
            columns.add(op.player, op.key, op.by);
            arrays.set(op.player, addInPlace(ownCounts(was), op.key, op.by));
          } else {
            columns.set(op.player, op.counts);
            arrays.set(op.player, ownCounts(op.counts));
          }
          const expected = arrays.get(op.player)!;
          expect(columns.get(op.player)).toEqual(expected);
          for (const key of KEYS)
            expect(columns.count(op.player, key)).toBe(countIn(expected, key));
        }
        for (let player = 0; player < 70; player++)
          expect(columns.get(player)).toEqual(arrays.get(player) ?? NO_COUNTS);
      }),
      { numRuns: 500 },
    );
  });

  it('Given a player past two open periods, Then the third comes back in key order, and set brings the row back', () => {
    const columns = new PeriodColumns();
    columns.add(3, '2026-W47', 1);
    columns.add(3, '2026-W45', 2);
    columns.add(3, '2026-W46', 5);
    expect(columns.get(3)).toEqual([
      { key: '2026-W45', count: 2 },
      { key: '2026-W46', count: 5 },
      { key: '2026-W47', count: 1 },
    ]);
    columns.set(3, [{ key: '2026-W48', count: 4 }]);
    columns.add(3, '2026-W48', -4);
    expect(columns.get(3)).toEqual([{ key: '2026-W48', count: 0 }]);
    expect(columns.count(3, '2026-W45')).toBe(0);
  });

  it('Given a table that grows, Then the rows it had are kept and the new ones are empty', () => {
    const columns = new PeriodColumns();
    columns.add(63, '2026-11', 7);
    columns.grow(1024);
    expect(columns.get(63)).toEqual([{ key: '2026-11', count: 7 }]);
    expect(columns.get(1000)).toBe(NO_COUNTS);
  });
});
