/**
 * Epoch milliseconds of an instant the schema accepted (RFC 3339 `date-time`, `T`/`t`, `Z`/`z`
 * or `±hh:mm`), NaN for a leap second. Every reader of an event's instant goes through here:
 * ECMAScript's Date.parse is only specified for the upper-case form, so the lower-case one
 * would depend on the engine's fallback parser.
 */
export const instantMillis = (instant: string): number => Date.parse(instant.toUpperCase());
