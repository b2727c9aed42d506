import { CLOSE_ORDER, PeriodCalendar, type PeriodWindow } from './index.js';

// RULES.md "Windows": days and weeks start at 06:00 local (weeks on Monday, keyed by the ISO
// week of that Monday); months are calendar months [1st 00:00, next 1st 00:00) that close at
// 06:00 on the next 1st. Both zones are UTC+08:00 all year, so every expected instant below
// is written with its +08:00 offset (or as the equivalent UTC instant, 8 hours earlier).

const t = (iso: string): number => Date.parse(iso);

describe.each(['Asia/Shanghai', 'Asia/Taipei'])('PeriodCalendar in %s', (zone) => {
  const calendar = new PeriodCalendar(zone);

  describe('given the local day starts at 06:00', () => {
    it.each([
      ['2026-11-29T05:59:59+08:00', '2026-11-28'],
      ['2026-11-29T06:00:00+08:00', '2026-11-29'],
      ['2026-11-29T23:59:59+08:00', '2026-11-29'],
      ['2026-11-30T05:59:59.999+08:00', '2026-11-29'],
      // the same boundary given as UTC instants: 05:59:59+08:00 = 21:59:59Z the day before
      ['2026-11-28T21:59:59Z', '2026-11-28'],
      ['2026-11-28T22:00:00Z', '2026-11-29'],
      // the year boundary: the small hours of 1 January still belong to 31 December
      ['2027-01-01T05:59:59+08:00', '2026-12-31'],
      ['2027-01-01T06:00:00+08:00', '2027-01-01'],
      // 2028 is a leap year: 1 March 05:00 belongs to 29 February
      ['2028-03-01T05:00:00+08:00', '2028-02-29'],
    ])('when an instant is %s then its day key is %s', (iso, key) => {
      expect(calendar.dayKey(t(iso))).toBe(key);
      expect(calendar.keyOf('daily', t(iso))).toBe(key);
    });
  });

  describe('given weeks run from Monday 06:00 to the next Monday 06:00', () => {
    it.each([
      // Mon 2026-11-23 05:59 is still Sunday's day, so still week 47
      ['2026-11-23T05:59:59+08:00', '2026-W47'],
      ['2026-11-23T06:00:00+08:00', '2026-W48'],
      ['2026-11-29T23:59:59+08:00', '2026-W48'],
      ['2026-11-30T05:59:00+08:00', '2026-W48'],
      ['2026-11-30T06:00:00+08:00', '2026-W49'],
      // ISO 2026 starts on a Thursday, so it has 53 weeks: W53 = Mon 12-28 .. Mon 2027-01-04
      ['2026-12-28T05:59:59+08:00', '2026-W52'],
      ['2026-12-28T06:00:00+08:00', '2026-W53'],
      ['2026-12-31T23:59:59+08:00', '2026-W53'],
      ['2027-01-01T00:00:00+08:00', '2026-W53'],
      ['2027-01-03T12:00:00+08:00', '2026-W53'],
      ['2027-01-04T05:59:59+08:00', '2026-W53'],
      ['2027-01-04T06:00:00+08:00', '2027-W01'],
      // ISO week-year 2026 starts on Mon 2025-12-29
      ['2025-12-29T05:59:59+08:00', '2025-W52'],
      ['2025-12-29T06:00:00+08:00', '2026-W01'],
    ])('when an instant is %s then its week key is %s', (iso, key) => {
      expect(calendar.weekKey(t(iso))).toBe(key);
      expect(calendar.keyOf('weekly', t(iso))).toBe(key);
    });
  });

  describe('given months are calendar months in local time', () => {
    it.each([
      ['2026-11-30T23:59:59+08:00', '2026-11'],
      ['2026-12-01T00:00:00+08:00', '2026-12'],
      ['2026-12-01T03:00:00+08:00', '2026-12'],
      ['2026-12-01T05:59:59+08:00', '2026-12'],
      ['2026-12-31T23:59:59+08:00', '2026-12'],
      ['2027-01-01T00:00:00+08:00', '2027-01'],
      // 2026-11-30T16:00Z is 2026-12-01T00:00+08:00
      ['2026-11-30T15:59:59Z', '2026-11'],
      ['2026-11-30T16:00:00Z', '2026-12'],
    ])('when an instant is %s then its month key is %s', (iso, key) => {
      expect(calendar.monthKey(t(iso))).toBe(key);
      expect(calendar.keyOf('monthly', t(iso))).toBe(key);
    });

    it('when a game ends at 03:00 on the 1st then it is in the new month but still on the last day of the old one', () => {
      const at = t('2026-12-01T03:00:00+08:00');
      expect(calendar.monthKey(at)).toBe('2026-12');
      expect(calendar.dayKey(at)).toBe('2026-11-30');
      expect(calendar.weekKey(at)).toBe('2026-W49');
    });
  });

  describe('given a period key', () => {
    it.each<[PeriodWindow['period'], string, string, string, string]>([
      // [period, key, start, end, closesAt]
      [
        'daily',
        '2026-11-29',
        '2026-11-29T06:00:00+08:00',
        '2026-11-30T06:00:00+08:00',
        '2026-11-30T06:00:00+08:00',
      ],
      [
        'daily',
        '2026-12-31',
        '2026-12-31T06:00:00+08:00',
        '2027-01-01T06:00:00+08:00',
        '2027-01-01T06:00:00+08:00',
      ],
      [
        'daily',
        '2028-02-29',
        '2028-02-29T06:00:00+08:00',
        '2028-03-01T06:00:00+08:00',
        '2028-03-01T06:00:00+08:00',
      ],
      [
        'weekly',
        '2026-W48',
        '2026-11-23T06:00:00+08:00',
        '2026-11-30T06:00:00+08:00',
        '2026-11-30T06:00:00+08:00',
      ],
      [
        'weekly',
        '2026-W53',
        '2026-12-28T06:00:00+08:00',
        '2027-01-04T06:00:00+08:00',
        '2027-01-04T06:00:00+08:00',
      ],
      [
        'weekly',
        '2027-W01',
        '2027-01-04T06:00:00+08:00',
        '2027-01-11T06:00:00+08:00',
        '2027-01-11T06:00:00+08:00',
      ],
      [
        'weekly',
        '2026-W01',
        '2025-12-29T06:00:00+08:00',
        '2026-01-05T06:00:00+08:00',
        '2026-01-05T06:00:00+08:00',
      ],
      // months: [1st 00:00, next 1st 00:00), closed at 06:00 on the next 1st
      [
        'monthly',
        '2026-11',
        '2026-11-01T00:00:00+08:00',
        '2026-12-01T00:00:00+08:00',
        '2026-12-01T06:00:00+08:00',
      ],
      [
        'monthly',
        '2026-12',
        '2026-12-01T00:00:00+08:00',
        '2027-01-01T00:00:00+08:00',
        '2027-01-01T06:00:00+08:00',
      ],
      [
        'monthly',
        '2028-02',
        '2028-02-01T00:00:00+08:00',
        '2028-03-01T00:00:00+08:00',
        '2028-03-01T06:00:00+08:00',
      ],
    ])(
      'when the %s window of %s is asked for then it is [%s, %s) closing at %s',
      (period, key, start, end, closesAt) => {
        const w = calendar.window(period, key);
        expect(w).toEqual({ period, key, start: t(start), end: t(end), closesAt: t(closesAt) });
        expect(calendar.iso(w.start)).toBe(start);
        expect(calendar.iso(w.end)).toBe(end);
      },
    );

    it.each<[PeriodWindow['period'], string]>([
      ['daily', '2027-01-01'],
      ['weekly', '2026-W53'],
      ['weekly', '2027-W01'],
      ['monthly', '2026-12'],
      ['monthly', '2027-01'],
    ])(
      'when the %s window of %s is asked for then its start is in it and its end is in the next one',
      (period, key) => {
        const w = calendar.window(period, key);
        expect(calendar.keyOf(period, w.start)).toBe(key);
        expect(calendar.keyOf(period, w.end - 1)).toBe(key);
        expect(calendar.keyOf(period, w.end)).not.toBe(key);
        expect(calendar.windowAt(period, w.end - 1)).toEqual(w);
      },
    );
  });

  describe('given a window', () => {
    it.each<[PeriodWindow['period'], string, string, string, string]>([
      // [period, key, next key, next start, next end]
      [
        'daily',
        '2026-12-31',
        '2027-01-01',
        '2027-01-01T06:00:00+08:00',
        '2027-01-02T06:00:00+08:00',
      ],
      ['weekly', '2026-W52', '2026-W53', '2026-12-28T06:00:00+08:00', '2027-01-04T06:00:00+08:00'],
      ['weekly', '2026-W53', '2027-W01', '2027-01-04T06:00:00+08:00', '2027-01-11T06:00:00+08:00'],
      ['monthly', '2026-11', '2026-12', '2026-12-01T00:00:00+08:00', '2027-01-01T00:00:00+08:00'],
      ['monthly', '2026-12', '2027-01', '2027-01-01T00:00:00+08:00', '2027-02-01T00:00:00+08:00'],
    ])(
      'when following() the %s window %s then the next is %s = [%s, %s)',
      (period, key, nextKey, start, end) => {
        const w = calendar.window(period, key);
        const next = calendar.following(w);
        expect(next.key).toBe(nextKey);
        expect(next.period).toBe(period);
        expect(next.start).toBe(w.end);
        expect(next.start).toBe(t(start));
        expect(next.end).toBe(t(end));
      },
    );

    it('when following() the monthly window 2026-12 then the next closes at 06:00 on 1 February', () => {
      expect(calendar.following(calendar.window('monthly', '2026-12')).closesAt).toBe(
        t('2027-02-01T06:00:00+08:00'),
      );
    });

    it('when following() from 2026-W01 fifty-three times then the weeks are contiguous and end at 2027-W01', () => {
      // ISO 2026 has 53 weeks: W01 + 52 steps = W53, one more = 2027-W01
      let w = calendar.window('weekly', '2026-W01');
      const keys = [w.key];
      for (let i = 0; i < 53; i += 1) {
        const next = calendar.following(w);
        expect(next.start).toBe(w.end);
        expect(next.end - next.start).toBe(7 * 24 * 3600 * 1000);
        w = next;
        keys.push(w.key);
      }
      expect(keys[52]).toBe('2026-W53');
      expect(keys[53]).toBe('2027-W01');
      expect(new Set(keys).size).toBe(54);
    });
  });

  describe('given instants queried out of order around a boundary', () => {
    it('when they alternate across Monday 06:00 then each gets its own key (no stale cache)', () => {
      const before = t('2026-11-30T05:59:59+08:00');
      const after = t('2026-11-30T06:00:00+08:00');
      expect([after, before, after, before].map((ms) => calendar.weekKey(ms))).toEqual([
        '2026-W49',
        '2026-W48',
        '2026-W49',
        '2026-W48',
      ]);
      expect([before, after].map((ms) => calendar.dayKey(ms))).toEqual([
        '2026-11-29',
        '2026-11-30',
      ]);
    });
  });
});

describe('PeriodCalendar zones', () => {
  it('given Asia/Taipei and UTC, when 2026-11-29T10:00+08:00 (= 02:00Z) is keyed, then only Taipei is past 06:00', () => {
    const at = t('2026-11-29T10:00:00+08:00');
    expect(new PeriodCalendar('Asia/Taipei').dayKey(at)).toBe('2026-11-29');
    expect(new PeriodCalendar('UTC').dayKey(at)).toBe('2026-11-28');
  });

  it('given an unknown zone, when a calendar is made, then it throws', () => {
    expect(() => new PeriodCalendar('Mars/Olympus_Mons')).toThrow(/unknown time zone/);
  });

  it('given one instant with several closes, then they run weekly, monthly, daily (CONTRACT.md)', () => {
    expect(CLOSE_ORDER).toEqual(['weekly', 'monthly', 'daily']);
  });
});
