import { DateTime } from 'luxon';

/**
 * Board dates. A daily close of key D (the day from 06:00 on D to 06:00 on D+1, ADR 4) is
 * shown from 06:00 on D+1: that is "the 06:00 board" of date D+1. Boards are named by that date.
 */
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isRealDate = (date: string): boolean =>
  DATE.test(date) && DateTime.fromISO(date, { zone: 'utc' }).isValid;

export const boardDateOfClose = (key: string): string =>
  DateTime.fromISO(key, { zone: 'utc' }).plus({ days: 1 }).toISODate()!;

export const closeKeyOfBoard = (date: string): string =>
  DateTime.fromISO(date, { zone: 'utc' }).minus({ days: 1 }).toISODate()!;

/** Days since the epoch: the order of daily boards and the measure of the kept window. */
export const dayNumber = (date: string): number =>
  Math.round(DateTime.fromISO(date, { zone: 'utc' }).toMillis() / 86_400_000);

const published = new Map<string, string>();

/** The instant a board of this date was published: 06:00 in the ladder's zone (memoized: every answer names it). */
export function publishedAt(date: string, zone: string): string {
  const key = `${zone} ${date}`;
  let instant = published.get(key);
  if (instant === undefined) {
    instant = DateTime.fromISO(`${date}T06:00:00`, { zone }).toISO()!;
    if (published.size > 10_000) published.clear();
    published.set(key, instant);
  }
  return instant;
}

export const DAILY_BOARDS_KEPT = 30;
