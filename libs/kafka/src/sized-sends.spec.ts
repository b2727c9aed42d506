import { recordBytes, REQUEST_MAX_BYTES, sizedRuns } from './sized-sends.js';

describe('sizedRuns: produce requests under the broker limit', () => {
  it('Given messages, When cut, Then runs keep their order and stay under the byte budget', () => {
    const sizes = [400, 300, 200, 500, 100, 100, 900];
    const runs = sizedRuns(sizes, (n) => n, 1000);
    expect(runs).toEqual([[400, 300, 200], [500, 100, 100], [900]]);
    expect(runs.flat()).toEqual(sizes);
  });

  it('Given a message over the budget, When cut, Then it is sent alone (the broker decides it)', () => {
    expect(sizedRuns([10, 5000, 10], (n) => n, 1000)).toEqual([[10], [5000], [10]]);
  });

  it('Given a count limit, When cut, Then no run holds more', () => {
    expect(sizedRuns([1, 1, 1, 1, 1], (n) => n, 1000, 2)).toEqual([[1, 1], [1, 1], [1]]);
    expect(sizedRuns([], (n: number) => n)).toEqual([]);
  });

  it('Given five near-limit values under one key, When cut by recordBytes, Then each goes alone, and 40 values of 65,536 bytes go 13 a request', () => {
    const big = [600_000, 700_000, 800_000, 900_000, 990_000].map((n) => ({
      key: 'k',
      value: Buffer.alloc(n),
    }));
    expect(sizedRuns(big, recordBytes).map((r) => r.length)).toEqual([1, 1, 1, 1, 1]);
    const max = Array.from({ length: 40 }, () => ({
      key: 'igame-gomoku',
      value: Buffer.alloc(65_536),
    }));
    const runs = sizedRuns(max, recordBytes);
    expect(runs.map((r) => r.length)).toEqual([13, 13, 13, 1]);
    for (const run of runs)
      expect(run.reduce((n, m) => n + recordBytes(m), 0)).toBeLessThanOrEqual(REQUEST_MAX_BYTES);
  });

  it('Given headers, When counted, Then their names and values count, over the record format', () => {
    expect(recordBytes({ key: null, value: null })).toBe(32);
    expect(recordBytes({ key: 'ab', value: 'cde', headers: { 'x-r': 'v', n: ['1', '22'] } })).toBe(
      32 + 2 + 3 + (3 + 1 + 10) + (1 + 1 + 10) + (1 + 2 + 10),
    );
  });
});
