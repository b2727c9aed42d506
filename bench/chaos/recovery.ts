// What the chaos soak reports of each fault, from what it sampled: how long the backlog took to
// come back to its steady level, and the produce-to-committed latency of the events sent while
// it did. Pure functions of the samples, so the table is the same whatever printed it.

/** The backlog (events produced and not yet committed) at an instant, seconds from the start. */
export interface BacklogSample {
  readonly t: number;
  readonly backlog: number;
}

/** One event: when it was sent and when it was seen committed, seconds from the start. */
export interface EventLatency {
  readonly sent: number;
  readonly committed: number;
}

export interface Fault {
  readonly name: string;
  /** When it was injected, seconds from the start. */
  readonly at: number;
}

export interface FaultRecovery {
  readonly fault: string;
  readonly at: number;
  /** Seconds from the fault to a backlog back at its steady level for good; null: never. */
  readonly recoveredAfter: number | null;
  readonly peakBacklog: number;
  /** Events sent from the fault until it recovered (at least `minWindow` seconds). */
  readonly events: number;
  readonly p50: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

/** The q-quantile (0-1) of `values`, nearest rank; null when there are none. */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * The backlog the system keeps when nothing is wrong: twice the 95th percentile over the quiet
 * window [from, to), and never under one second of the load (a batch in flight).
 */
export function steadyBacklog(
  samples: readonly BacklogSample[],
  from: number,
  to: number,
  ratePerSecond: number,
): number {
  const quiet = samples.filter((s) => s.t >= from && s.t < to).map((s) => s.backlog);
  return Math.max(ratePerSecond, 2 * (quantile(quiet, 0.95) ?? 0));
}

/**
 * For each fault: the first instant from which the backlog stays at or under `steady` for
 * `hold` seconds (and until the next fault, if sooner), and the latency of the events sent from
 * the fault to then (at least `minWindow` seconds, so a fault that costs nothing still reports
 * the events it overlapped).
 */
export function faultRecoveries(
  faults: readonly Fault[],
  samples: readonly BacklogSample[],
  latencies: readonly EventLatency[],
  steady: number,
  { hold = 5, minWindow = 10 }: { hold?: number; minWindow?: number } = {},
): FaultRecovery[] {
  const sorted = [...faults].sort((a, b) => a.at - b.at);
  return sorted.map((fault, i) => {
    const next = sorted[i + 1]?.at ?? Infinity;
    const after = samples.filter((s) => s.t >= fault.at);
    let recovered: number | null = null;
    for (let j = 0; j < after.length; j++) {
      const start = after[j]!;
      if (start.backlog > steady) continue;
      const until = Math.min(start.t + hold, next);
      const window = after.filter((s) => s.t >= start.t && s.t <= until);
      const last = after[after.length - 1]!;
      if (window.every((s) => s.backlog <= steady) && (last.t >= until || j === after.length - 1)) {
        recovered = start.t;
        break;
      }
    }
    const end = Math.max(fault.at + minWindow, recovered ?? Infinity);
    const peak = Math.max(
      0,
      ...samples.filter((s) => s.t >= fault.at && s.t <= Math.min(end, next)).map((s) => s.backlog),
    );
    const waits = latencies
      .filter((l) => l.sent >= fault.at && l.sent < end)
      .map((l) => l.committed - l.sent);
    return {
      fault: fault.name,
      at: fault.at,
      recoveredAfter: recovered === null ? null : recovered - fault.at,
      peakBacklog: peak,
      events: waits.length,
      p50: quantile(waits, 0.5),
      p99: quantile(waits, 0.99),
      max: waits.length === 0 ? null : Math.max(...waits),
    };
  });
}
