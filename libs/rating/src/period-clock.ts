import { DateTime } from 'luxon';
import type { PeriodName } from '@ranking/contracts';

/** A closable period of a ladder, in epoch milliseconds. */
export interface PeriodWindow {
  readonly period: PeriodName;
  readonly key: string;
  /** Games with finishedAt in [start, end) belong to the period. */
  readonly start: number;
  readonly end: number;
  /** When the period closes: 06:00 local after its end (the same instant as `end`, but for months). */
  readonly closesAt: number;
}

/** At one instant closes run in this order (CONTRACT.md). */
export const CLOSE_ORDER: readonly PeriodName[] = ['weekly', 'monthly', 'daily'];

const DAY_START_HOUR = 6;
interface StretchKeys {
  day: string;
  week: string;
  month: string;
}

/**
 * Period arithmetic in one IANA zone: days and weeks start at 06:00 local, months at the
 * calendar 1st 00:00 and close at 06:00 on the next 1st. Keys: `2026-11-29` (the day that
 * starts at 06:00 that date), `2026-W48` (ISO week of the Monday 06:00 it starts on), `2026-11`.
 */
export class PeriodCalendar {
  /** Keys are constant between local 00:00 and 06:00 boundaries: cache the current stretch. */
  private stretchStart = Number.NaN;
  private stretchEnd = Number.NaN;
  private lastKeys: StretchKeys = { day: '', week: '', month: '' };

  constructor(readonly zone: string) {
    if (!DateTime.now().setZone(zone).isValid) throw new Error(`unknown time zone "${zone}"`);
  }

  private static readonly shared = new Map<string, PeriodCalendar>();

  /** One calendar per zone, shared: its cache stays warm across folds (a service makes one per batch). */
  static of(zone: string): PeriodCalendar {
    let calendar = PeriodCalendar.shared.get(zone);
    if (!calendar) {
      calendar = new PeriodCalendar(zone);
      PeriodCalendar.shared.set(zone, calendar);
    }
    return calendar;
  }

  dayKey(ms: number): string {
    return this.keysAt(ms).day;
  }

  weekKey(ms: number): string {
    return this.keysAt(ms).week;
  }

  monthKey(ms: number): string {
    return this.keysAt(ms).month;
  }

  keyOf(period: PeriodName, ms: number): string {
    const keys = this.keysAt(ms);
    return period === 'daily' ? keys.day : period === 'weekly' ? keys.week : keys.month;
  }

  /** The window of a period given by its key. */
  window(period: PeriodName, key: string): PeriodWindow {
    const start = this.startOf(period, key);
    const next =
      period === 'daily'
        ? start.plus({ days: 1 })
        : period === 'weekly'
          ? start.plus({ weeks: 1 })
          : start.plus({ months: 1 });
    const closesAt = period === 'monthly' ? next.set({ hour: DAY_START_HOUR }) : next;
    return {
      period,
      key,
      start: start.toMillis(),
      end: next.toMillis(),
      closesAt: closesAt.toMillis(),
    };
  }

  /** An instant as ISO-8601 with this zone's offset. */
  iso(ms: number): string {
    return DateTime.fromMillis(ms, { zone: this.zone }).toISO({ suppressMilliseconds: true }) ?? '';
  }

  /** The window of the period that contains the instant. */
  windowAt(period: PeriodName, ms: number): PeriodWindow {
    return this.window(period, this.keyOf(period, ms));
  }

  /** The period right after the given one. */
  following(window: PeriodWindow): PeriodWindow {
    return this.windowAt(window.period, window.end);
  }

  private startOf(period: PeriodName, key: string): DateTime {
    const zone = this.zone;
    const parts = key.split(/-W?/).map(Number);
    const [y = 0, a = 1, b = 1] = parts;
    switch (period) {
      case 'daily':
        return DateTime.fromObject({ year: y, month: a, day: b, hour: DAY_START_HOUR }, { zone });
      case 'weekly':
        return DateTime.fromObject(
          { weekYear: y, weekNumber: a, weekday: 1, hour: DAY_START_HOUR },
          { zone },
        );
      case 'monthly':
        return DateTime.fromObject({ year: y, month: a, day: 1 }, { zone });
    }
  }

  /**
   * One string instance per key: players' period counts hold the keys the calendar handed out,
   * and comparing a key with itself is a pointer check instead of a character scan.
   */
  private readonly keys = new Map<string, string>();

  private interned(key: string): string {
    const known = this.keys.get(key);
    if (known !== undefined) return known;
    if (this.keys.size > 10_000) this.keys.clear();
    this.keys.set(key, key);
    return key;
  }

  private keysAt(ms: number): StretchKeys {
    if (!(ms >= this.stretchStart && ms < this.stretchEnd)) this.enterStretch(ms);
    return this.lastKeys;
  }

  /** Computes the keys at `ms` and the stretch around it (between 00:00 and 06:00 local boundaries). */
  private enterStretch(ms: number): void {
    const local = DateTime.fromMillis(ms, { zone: this.zone });
    const early = local.hour < DAY_START_HOUR;
    const midnight = local.startOf('day');
    const start = early ? midnight : midnight.set({ hour: DAY_START_HOUR });
    const end = early ? midnight.set({ hour: DAY_START_HOUR }) : midnight.plus({ days: 1 });
    // Before 06:00 an instant still belongs to the previous day (and week).
    const day = early ? local.minus({ days: 1 }) : local;
    this.lastKeys = {
      day: this.interned(day.toISODate() ?? ''),
      week: this.interned(`${day.weekYear}-W${String(day.weekNumber).padStart(2, '0')}`),
      month: this.interned(local.toFormat('yyyy-MM')),
    };
    this.stretchStart = start.toMillis();
    this.stretchEnd = end.toMillis();
  }
}
