/** The contract's bounds of an event id (CONTRACT.md "Events"): 1 to 128 characters. */
export const MAX_EVENT_ID_CODE_POINTS = 128;

/**
 * Whether a value is an event id the contract allows: a string of 1 to 128 code points (as
 * JSON Schema's maxLength counts them, an astral character once). A longer string is refused
 * by its length in UTF-16 units before it is split: 128 code points are at most 256 units.
 */
export function isWellFormedEventId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0) return false;
  if (id.length <= MAX_EVENT_ID_CODE_POINTS) return true;
  if (id.length > 2 * MAX_EVENT_ID_CODE_POINTS) return false;
  return [...id].length <= MAX_EVENT_ID_CODE_POINTS;
}
