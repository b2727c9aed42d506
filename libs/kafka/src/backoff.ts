/** How long retries wait: doubling from `initialMs` up to `maxMs`, each wait jittered. */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** How far a wait may stray from the doubling schedule, as a share of it (0 to 1). */
  readonly jitter: number;
}

/** The consumers' and relays' policy: 100 ms, 200 ms, … up to 10 s, ±20 %. */
export const RETRY_BACKOFF: BackoffPolicy = { initialMs: 100, maxMs: 10_000, jitter: 0.2 };

/**
 * A missing grant or topic waits for an operator: retried slowly (1 s doubling up to 30 s), so
 * a fix takes effect within half a minute without the broker's log filling with refusals.
 */
export const MISCONFIGURED_BACKOFF: BackoffPolicy = {
  initialMs: 1_000,
  maxMs: 30_000,
  jitter: 0.2,
};

/**
 * The wait before retry `attempt` (1 for the first retry). Jitter spreads the retries of
 * instances that failed together (a database restart) so they do not return in step; kafkajs's
 * own retrier draws its waits the same way.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy = RETRY_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  return Math.round(base * (1 - policy.jitter + 2 * policy.jitter * random()));
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
