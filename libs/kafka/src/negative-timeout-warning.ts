/**
 * kafkajs 2.2.4's request queue arms its throttle check with `throttledUntil - Date.now()`,
 * negative whenever the queue is not throttled (`throttledUntil` starts at -1). Node has always
 * run such a timer after 1 ms; since Node 23 it also prints, once a process, a
 * `TimeoutNegativeWarning` on stderr: a line that is not JSON among a service's or the CLI's JSON
 * log lines (ADR 29). That warning, and only it, is dropped; every other warning is emitted as
 * before.
 */
export const NEGATIVE_TIMEOUT_WARNING = 'TimeoutNegativeWarning';

/** Whether `process.emitWarning(warning, ...rest)` is the negative-timeout warning. */
export function isNegativeTimeoutWarning(warning: unknown, rest: readonly unknown[]): boolean {
  const [typeOrOptions] = rest;
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : (typeOrOptions as { type?: unknown } | undefined)?.type;
  return (
    type === NEGATIVE_TIMEOUT_WARNING ||
    (warning instanceof Error && warning.name === NEGATIVE_TIMEOUT_WARNING)
  );
}

let quieted = false;

/** Drops the negative-timeout warning from `process.emitWarning` (once per process). */
export function quietNegativeTimeoutWarning(): void {
  if (quieted) return;
  quieted = true;
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = (warning: unknown, ...rest: unknown[]) => {
    if (!isNegativeTimeoutWarning(warning, rest)) emitWarning(warning, ...rest);
  };
}
