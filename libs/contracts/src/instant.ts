/**
 * Epoch milliseconds of an instant the schema accepted (RFC 3339 `date-time`, `T`/`t`, `Z`/`z`
 * or `±hh:mm`), NaN for a leap second. Every reader of an event's instant goes through here:
 * ECMAScript's Date.parse is only specified for the upper-case form, so the lower-case one
 * would depend on the engine's fallback parser.
 *
 * The fold reads an instant per event, and Date.parse costs about a fifth of a whole game's
 * fold, so the common form (a real calendar date, hours 00-23, seconds 00-59) is computed
 * directly; anything else (leap seconds, 24:00, a day past its month's end, odd lengths) goes
 * to `Date.parse`, whose answer the fast path equals wherever it answers (instant.spec.ts).
 */
export function instantMillis(instant: string): number {
  const fast = fastInstantMillis(instant);
  return fast === fast ? fast : Date.parse(instant.toUpperCase());
}

/**
 * Epoch milliseconds of a strict RFC 3339 date-time with its offset that names a real instant
 * (a real calendar day, hours 00-23, no leap second), NaN for anything else: what a request or
 * a flag naming an instant must be. `instantMillis` is for instants the schema already checked
 * and leaves the rest to Date.parse, which takes 2026-02-30 as 2 March.
 */
export const rfc3339Millis = (text: string): number => fastInstantMillis(text);

/**
 * Whether a text is an RFC 3339 date-time naming a real instant (`rfc3339Millis` is a number):
 * the schema's `date-time` format. Any number of fraction digits; the instant is placed by the
 * first three (truncated, so never carried into the next second, day or period).
 */
export const isInstant = (text: string): boolean => !Number.isNaN(fastInstantMillis(text));

/** Date.parse's own path, for comparison in tests. */
export const parsedInstantMillis = (instant: string): number => Date.parse(instant.toUpperCase());

const ZERO = 48;

/** The decimal value of `count` digits at `at`, or -1 when one is not a digit. */
function digits(s: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : month === 4 || month === 6 || month === 9 || month === 11
      ? 30
      : 31;

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The common form computed directly; NaN where `Date.parse` must decide. */
function fastInstantMillis(s: string): number {
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  const t = s.charCodeAt(10);
  if ((t !== 84 && t !== 116) || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NaN;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return NaN;
  let at = 19;
  let millis = 0;
  if (s.charCodeAt(at) === 46) {
    // Date.parse keeps the first three fraction digits and drops the rest.
    at++;
    const first = at;
    while (at < n) {
      const d = s.charCodeAt(at) - ZERO;
      if (d < 0 || d > 9) break;
      if (at - first < 3) millis = millis * 10 + d;
      at++;
    }
    const count = at - first;
    if (count === 0) return NaN;
    if (count === 1) millis *= 100;
    else if (count === 2) millis *= 10;
  }
  let offset = 0;
  const z = s.charCodeAt(at);
  if (z === 90 || z === 122) {
    if (at + 1 !== n) return NaN;
  } else if (z === 43 || z === 45) {
    if (at + 6 !== n || s.charCodeAt(at + 3) !== 58) return NaN;
    const oh = digits(s, at + 1, 2);
    const om = digits(s, at + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return NaN;
    offset = (z === 43 ? 1 : -1) * (oh * 60 + om) * 60_000;
  } else return NaN;
  const days = daysFromCivil(year, month, day);
  return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis - offset;
}
