import type { ConsumerStatus } from './checkpointed-consumer.js';

/**
 * One status for several consumers of one service (the intake runs one per producer, ADR 39),
 * as health checks read a single consumer's: the stalest contact, the worst retry (a missing
 * grant first, then the oldest), the sum of lags measured (as old as the oldest measurement),
 * every crash. With no consumer there is nothing to be late or behind: well, as of `now`.
 */
export function combinedStatus(
  statuses: ReadonlyMap<string, ConsumerStatus>,
  now: number,
): ConsumerStatus {
  const named = [...statuses];
  if (named.length === 0)
    return {
      lastContact: now,
      retrying: null,
      quarantined: 0,
      lag: { at: now, partitions: new Map(), total: 0n },
      crashed: null,
    };
  const retries = named
    .filter(([, s]) => s.retrying !== null)
    .map(([name, s]) => ({ ...s.retrying!, error: `${name}: ${s.retrying!.error}` }))
    .sort(
      (a, b) =>
        Number(b.kind === 'misconfigured') - Number(a.kind === 'misconfigured') ||
        a.since - b.since,
    );
  const lags = named.map(([, s]) => s.lag);
  const crashes = named.filter(([, s]) => s.crashed !== null).map(([n, s]) => `${n}: ${s.crashed}`);
  return {
    lastContact: Math.min(...named.map(([, s]) => s.lastContact)),
    retrying: retries[0] ?? null,
    quarantined: named.reduce((sum, [, s]) => sum + s.quarantined, 0),
    lag: lags.some((l) => l === null)
      ? null
      : {
          at: Math.min(...lags.map((l) => l!.at)),
          partitions: new Map(),
          total: lags.reduce((sum, l) => sum + l!.total, 0n),
        },
    crashed: crashes.length > 0 ? crashes.join('; ') : null,
  };
}
