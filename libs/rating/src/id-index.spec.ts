import fc from 'fast-check';
import { IdIndex } from './id-index.js';

describe('IdIndex', () => {
  it('Given any ids added in any order (repeats, empty and long ones, past several rehashes), Then it numbers them as a Map of first sightings would', () => {
    const idArb = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.string({ minLength: 20, maxLength: 80 }),
      fc.integer({ min: 0, max: 3000 }).map((n) => `g${n}`),
    );
    fc.assert(
      fc.property(fc.array(idArb, { maxLength: 3000 }), (ids) => {
        const index = new IdIndex();
        const expected = new Map<string, number>();
        for (const id of ids) {
          if (!expected.has(id)) expected.set(id, expected.size);
          expect(index.add(id)).toBe(expected.get(id));
        }
        expect(index.size).toBe(expected.size);
        for (const [id, n] of expected) {
          expect(index.find(id)).toBe(n);
          expect(index.idOf(n)).toBe(id);
        }
        expect(index.find('never-added-\u0000')).toBe(-1);
      }),
      { numRuns: 60 },
    );
  });
});
