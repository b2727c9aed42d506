import fc from 'fast-check';
import { parseEvent } from './event-validator.js';
import { instantMillis, parsedInstantMillis, rfc3339Millis } from './instant.js';

// RULES.md "Strings and instants": an instant is exactly RFC 3339's date-time (T or t, Z or z
// or ±hh:mm, no leap second) with a year from 2000 to 2099.

type Json = Record<string, unknown>;

const game: Json = {
  id: 'e-1',
  type: 'game.finished',
  ladder: 'qq-gomoku',
  gameId: 'g-1',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  players: [
    { id: 'alice', result: 'win' },
    { id: 'bob', result: 'loss' },
  ],
};
const correction: Json = {
  id: 'c-1',
  type: 'game.corrected',
  ladder: 'qq-gomoku',
  gameId: 'g-1',
  correctedAt: '2026-11-30T09:00:00+08:00',
  void: true,
};
const close: Json = {
  id: 'period.closed:qq-gomoku:daily:2026-11-29',
  type: 'period.closed',
  ladder: 'qq-gomoku',
  period: 'daily',
  key: '2026-11-29',
  start: '2026-11-29T06:00:00+08:00',
  end: '2026-11-30T06:00:00+08:00',
};
const penalty: Json = {
  id: 'p-1',
  type: 'player.penalized',
  ladder: 'igame-gomoku',
  player: 'bob',
  points: -100,
  reason: 'disconnects',
  at: '2026-11-29T13:05:00+08:00',
};

const FIELDS: [string, Json][] = [
  ['finishedAt', game],
  ['correctedAt', correction],
  ['start', close],
  ['end', close],
  ['at', penalty],
];

const verdict = (event: Json): string => {
  const outcome = parseEvent(JSON.stringify(event));
  return outcome.ok ? 'ok' : `${outcome.rejection.code}: ${outcome.rejection.detail}`;
};

describe.each(FIELDS)('the instant %s', (field, event) => {
  const at = (value: string): string => verdict({ ...event, [field]: value });

  it.each([
    ['a space for T', '2026-11-29 13:05:00+08:00'],
    ['an offset without a colon', '2026-11-29T13:05:00+0800'],
    ['an offset of hours only', '2026-11-29T13:05:00+08'],
    ['no offset', '2026-11-29T13:05:00'],
    ['no seconds', '2026-11-29T13:05+08:00'],
    ['a date only', '2026-11-29'],
    ['the year 1999', '1999-12-31T23:59:59Z'],
    ['the year 2100', '2100-01-01T00:00:00Z'],
    ['the year 0001', '0001-01-01T00:00:00Z'],
    ['the year 9999', '9999-12-31T23:59:59Z'],
    ['a leap second', '2026-12-31T23:59:60Z'],
    ['a leap second at a +08:00 offset', '2027-01-01T07:59:60+08:00'],
    ['a day that does not exist', '2026-02-30T12:00:00Z'],
    ['hour 24', '2026-11-29T24:00:00Z'],
    ['an offset beyond 23:59', '2026-11-29T13:05:00+24:00'],
    ['a trailing space', '2026-11-29T13:05:00Z '],
    ['a line feed at the end', '2026-11-29T13:05:00Z\n'],
    ['full-width digits', '２０２６-11-29T13:05:00Z'],
  ])('rejects %s as invalid-event', (_what, value) => {
    expect(at(value)).toMatch(new RegExp(`^invalid-event: /${field}`));
  });

  it.each([
    ['the year 2000', '2000-01-01T00:00:00Z'],
    ['the year 2099', '2099-12-31T23:59:59.999Z'],
    ['lower-case t and z', '2026-11-29t13:05:00z'],
    ['lower-case t with an offset', '2026-11-29t13:05:00+08:00'],
    ['a negative offset', '2026-11-29T13:05:00-05:30'],
    ['-00:00', '2026-11-29T13:05:00-00:00'],
    ['fractional seconds', '2026-11-29T13:05:00.123456Z'],
    // A format check that reads 59.999… as a floating-point number sees 60 (issue 29).
    ['21 fraction digits just before 06:00', '2026-03-08T05:59:59.999999999999999999999+08:00'],
    ['21 fraction digits at 23:59:59 UTC', '2026-12-31T23:59:59.999999999999999999999Z'],
    ['a fraction of 400 nines', `2026-03-08T05:59:59.${'9'.repeat(400)}+08:00`],
    ['23:59:59 (no leap second)', '2026-12-31T23:59:59Z'],
    ['29 February of a leap year', '2028-02-29T12:00:00Z'],
  ])('accepts %s', (_what, value) => {
    expect(at(value)).toBe('ok');
  });
});

describe('instantMillis', () => {
  it.each([
    ['2026-11-29t13:05:00z', '2026-11-29T13:05:00Z'],
    ['2026-11-29t13:05:00+08:00', '2026-11-29T13:05:00+08:00'],
    ['2026-11-29T13:05:00.5z', '2026-11-29T13:05:00.500Z'],
    ['2026-11-29t13:05:00.123456789-05:30', '2026-11-29T13:05:00.123-05:30'],
  ])('places %s where %s is', (lower, upper) => {
    expect(instantMillis(lower)).toBe(instantMillis(upper));
    expect(Number.isFinite(instantMillis(upper))).toBe(true);
  });

  it('places any fraction by its first three digits, never rounding up', () => {
    const last = Date.UTC(2026, 2, 7, 21, 59, 59, 999);
    expect(instantMillis('2026-03-08T05:59:59.999999999999999999999+08:00')).toBe(last);
    expect(instantMillis('2026-03-07t21:59:59.9995z')).toBe(last);
    expect(instantMillis(`2026-03-08T05:59:59.${'9'.repeat(400)}+08:00`)).toBe(last);
    expect(rfc3339Millis('2026-03-07T21:59:59.9999995Z')).toBe(last);
  });

  it('reads the offset', () => {
    expect(instantMillis('2026-11-29T13:05:00+08:00')).toBe(Date.UTC(2026, 10, 29, 5, 5));
    expect(instantMillis('2026-11-29t05:05:00z')).toBe(Date.UTC(2026, 10, 29, 5, 5));
  });

  it('places no leap second', () => {
    expect(instantMillis('2026-12-31T23:59:60Z')).toBeNaN();
    expect(instantMillis('2026-12-31t23:59:60z')).toBeNaN();
  });
});

describe('instantMillis equals Date.parse', () => {
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const instant = fc
    .record({
      year: fc.integer({ min: 1990, max: 2110 }).map(String),
      month: two(13),
      day: two(32),
      t: fc.constantFrom('T', 't'),
      hour: two(24),
      minute: two(60),
      second: two(60),
      fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,9}$/), fc.constant('.')),
      zone: fc.oneof(
        fc.constantFrom('Z', 'z', '+00:00', '-00:00', 'Y', ''),
        fc.tuple(fc.constantFrom('+', '-'), two(24), two(60)).map(([s, h, m]) => `${s}${h}:${m}`),
      ),
    })
    .map(
      (p) =>
        `${p.year}-${p.month}-${p.day}${p.t}${p.hour}:${p.minute}:${p.second}${p.fraction}${p.zone}`,
    );

  it('for any date-time shaped string, valid or not (the fast path decides only where Date.parse agrees)', () => {
    fc.assert(
      fc.property(instant, (s) => {
        expect(Object.is(instantMillis(s), parsedInstantMillis(s))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    '2026-02-30T00:00:00Z',
    '2024-02-29T23:59:59.9999999+23:59',
    '2100-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:00:00.Z',
    '2026-01-01T00:00:00+0800',
    'not an instant at all',
  ])('for the edge case %s', (s) => {
    expect(Object.is(instantMillis(s), parsedInstantMillis(s))).toBe(true);
  });
});

describe('rfc3339Millis (an instant a request or a flag names)', () => {
  it.each([
    ['2026-11-29T13:05:00+08:00', Date.UTC(2026, 10, 29, 5, 5)],
    ['2026-11-29t05:05:00.5z', Date.UTC(2026, 10, 29, 5, 5, 0, 500)],
    ['2026-11-29T05:05:00.123456Z', Date.UTC(2026, 10, 29, 5, 5, 0, 123)],
    ['2024-02-29T00:00:00-01:30', Date.UTC(2024, 1, 29, 1, 30)],
  ])('given %s, then its epoch milliseconds', (text, ms) => {
    expect(rfc3339Millis(text)).toBe(ms);
  });

  it.each([
    '2026-02-30T00:00:00Z', // Date.parse says 2 March
    '2026-01-01T24:00:00Z',
    '2026-12-31T23:59:60Z',
    '2026-01-01T00:00Z',
    '2026-01-01T00:00:00', // no offset: a local time, no instant
    '2026-01-01 00:00:00Z',
    '2026-01-01T00:00:00 08:00', // a '+' decoded as a space
    '2026-01-01T00:00:00+0800',
    '2026-01-01',
    'yesterday',
  ])('given %s, then NaN', (text) => {
    expect(rfc3339Millis(text)).toBeNaN();
  });
});
