import type { PeriodClosed, PeriodName } from '@ranking/contracts';
import { CLOSE_ORDER, type PeriodCalendar, type PeriodWindow } from './period-clock.js';
import type { RuleSet } from './rule-set.js';

/**
 * The maintenance clock of one ladder as plain functions, so the service and a test can
 * reason about the same schedule the offline `--simulate` plays: a ladder's clock starts at
 * its first accepted event and then closes each period once, in the contract's order.
 */

/** The periods a ladder closes: daily for all, weekly and monthly where its rules have them. */
export const closingPeriods = (rules: RuleSet): PeriodName[] =>
  CLOSE_ORDER.filter((p) => p === 'daily' || rules.closes.includes(p));

/** The clock at its start: for each period the ladder closes, the window holding `at`. */
export function openingWindows(
  rules: RuleSet,
  calendar: PeriodCalendar,
  at: number,
): PeriodWindow[] {
  return closingPeriods(rules).map((p) => calendar.windowAt(p, at));
}

/**
 * Every window closing at or before `at`, oldest first and weekly, monthly, daily at one
 * instant, with the windows left open afterwards.
 */
export function dueCloses(
  open: readonly PeriodWindow[],
  calendar: PeriodCalendar,
  at: number,
): { due: PeriodWindow[]; open: PeriodWindow[] } {
  const clock = new Map(open.map((w) => [w.period, w]));
  const due: PeriodWindow[] = [];
  for (;;) {
    let next: PeriodWindow | undefined;
    for (const period of CLOSE_ORDER) {
      const w = clock.get(period);
      if (w && w.closesAt <= at && (!next || w.closesAt < next.closesAt)) next = w;
    }
    if (!next) break;
    due.push(next);
    clock.set(next.period, calendar.following(next));
  }
  return { due, open: CLOSE_ORDER.flatMap((p) => clock.get(p) ?? []) };
}

/** The contract's deterministic id of a close: publishing it twice closes it once. */
export const periodClosedId = (ladder: string, period: PeriodName, key: string): string =>
  `period.closed:${ladder}:${period}:${key}`;

/** The `period.closed` event of a window (start and end as local ISO-8601 in the ladder's zone). */
export function periodClosedEvent(
  ladder: string,
  calendar: PeriodCalendar,
  w: PeriodWindow,
): PeriodClosed {
  return {
    id: periodClosedId(ladder, w.period, w.key),
    type: 'period.closed',
    ladder,
    period: w.period,
    key: w.key,
    start: calendar.iso(w.start),
    end: calendar.iso(w.end),
  };
}
