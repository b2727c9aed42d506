import { EVENT_TYPES } from './events.js';

/**
 * The id prefixes that belong to the system and its operators (CONTRACT.md "Transport"): an
 * event type and a colon, or `annulment:`. The maintenance service's ids are of this form and
 * predictable, so a game server that could send one would displace the real event (the fold
 * ignores a repeated id).
 */
export const RESERVED_ID_PREFIXES: readonly string[] = [
  ...EVENT_TYPES.map((type) => `${type}:`),
  'annulment:',
];

/** Whether `id` is reserved for the system (a game server's event with it is `not-permitted`). */
export const isReservedId = (id: string): boolean =>
  RESERVED_ID_PREFIXES.some((prefix) => id.startsWith(prefix));
