import { consumerLag } from './consumer-lag.js';

describe('consumerLag', () => {
  const logs = [
    { partition: 0, high: 100n, low: 0n },
    { partition: 1, high: 50n, low: 20n },
    { partition: 2, high: 10n, low: 0n },
    { partition: 3, high: 0n, low: 0n },
  ];

  it('counts from the checkpoint, or from the log start without one', () => {
    const lag = consumerLag(logs, new Map([[0, 90n]]), 5);
    expect([...lag.partitions]).toEqual([
      [0, 10n],
      [1, 30n],
      [2, 10n],
      [3, 0n],
    ]);
    expect(lag.total).toBe(50n);
    expect(lag.at).toBe(5);
  });

  it('is zero at the end, and counts a checkpoint beyond the end or before the start as the whole log', () => {
    const lag = consumerLag(
      logs,
      new Map([
        [0, 100n],
        [1, 5n],
        [2, 99n],
      ]),
      0,
    );
    expect([...lag.partitions.values()]).toEqual([0n, 30n, 10n, 0n]);
  });
});
