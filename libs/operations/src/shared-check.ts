import { CHECK_TIMEOUT_MS, type HealthCheck } from './health-check.js';

/** A readiness check runs at most this often; the probes meanwhile share its answer. */
export const CHECK_INTERVAL_MS = 1_000;

/**
 * A check computed at most once per CHECK_INTERVAL_MS and shared by every probe meanwhile:
 * probes are not rate limited, and each Kafka check opens an admin connection to the brokers,
 * so fifty probes at once cost one. A new run starts once the last one settled and is an
 * interval old, or once it is older than CHECK_TIMEOUT_MS (a hung run is not waited for
 * forever). `ran` is told of every run.
 */
export function sharedCheck(
  check: HealthCheck,
  ran: (name: string) => void,
  now: () => number = Date.now,
): HealthCheck {
  let last: { started: number; settled: boolean; answer: ReturnType<HealthCheck['check']> } | null =
    null;
  return {
    name: check.name,
    check: () => {
      const at = now();
      const age = last === null ? Infinity : at - last.started;
      if (
        last === null ||
        (age >= CHECK_INTERVAL_MS && (last.settled || age >= CHECK_TIMEOUT_MS))
      ) {
        ran(check.name);
        const run = { started: at, settled: false, answer: check.check() };
        const settle = () => {
          run.settled = true;
        };
        run.answer.then(settle, settle);
        last = run;
      }
      return last.answer;
    },
  };
}
