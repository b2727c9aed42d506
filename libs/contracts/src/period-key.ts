import { DateTime } from 'luxon';
import type { PeriodName } from './events.js';

const SHAPES: Record<PeriodName, RegExp> = {
  daily: /^(\d{4})-(\d{2})-(\d{2})$/,
  weekly: /^(\d{4})-W(\d{2})$/,
  monthly: /^(\d{4})-(\d{2})$/,
};

/** True when `key` has the shape of `period` and names a real day, ISO week or month. */
export function isValidPeriodKey(period: PeriodName, key: string): boolean {
  const m = SHAPES[period].exec(key);
  if (!m) return false;
  const [y, a, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
  switch (period) {
    case 'daily':
      return DateTime.fromObject({ year: y, month: a, day: b }, { zone: 'UTC' }).isValid;
    case 'weekly':
      return DateTime.fromObject({ weekYear: y, weekNumber: a, weekday: 1 }, { zone: 'UTC' })
        .isValid;
    case 'monthly':
      return a >= 1 && a <= 12;
  }
}
