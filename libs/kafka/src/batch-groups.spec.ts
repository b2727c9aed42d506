import { batchGroups } from './batch-groups.js';

describe('batchGroups', () => {
  it('given a small fetch, then every partition goes into one group', () => {
    expect(batchGroups([30, 12, 55, 1], 3, 2000)).toEqual([[0, 1, 2, 3]]);
  });

  it('given a backlog, then the batches are spread over the groups allowed, balanced by size', () => {
    const groups = batchGroups([3000, 3000, 3000, 3000, 3000, 3000, 100, 2900], 3, 2000);
    expect(groups).toHaveLength(3);
    const sizes = groups.map((g) =>
      g.reduce((s, i) => s + [3000, 3000, 3000, 3000, 3000, 3000, 100, 2900][i]!, 0),
    );
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(3000);
    expect(groups.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const g of groups) expect(g).toEqual([...g].sort((a, b) => a - b));
  });

  it('never makes more groups than batches, nor a group below the minimum size', () => {
    expect(batchGroups([5000], 3, 2000)).toEqual([[0]]);
    expect(batchGroups([2500, 2500], 3, 2000)).toEqual([[0], [1]]);
    expect(batchGroups([2500, 1000], 3, 2000)).toEqual([[0, 1]]);
    expect(batchGroups([], 3, 2000)).toEqual([[]]);
  });
});
