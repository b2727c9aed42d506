/**
 * One named check of a health probe: resolves with details when up, throws (its message is
 * shown) when down. A check is given CHECK_TIMEOUT_MS.
 */
export interface HealthCheck {
  readonly name: string;
  check(): Promise<Record<string, unknown> | void>;
}

/** What `/health/ready` (and `/health`) checks: dependencies and consumers. */
export const READINESS_CHECKS = Symbol('readiness-checks');
/** What `/health/live` checks: only what a restart would cure. */
export const LIVENESS_CHECKS = Symbol('liveness-checks');

export const CHECK_TIMEOUT_MS = 3_000;

/** `work`, or an error once `ms` passed. */
export function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
