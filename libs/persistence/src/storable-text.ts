/**
 * What PostgreSQL text cannot hold: NUL, and unpaired surrogates (no UTF-8 form: node-pg would
 * send U+FFFD in their place, silently changing the text).
 */
const UNSTORABLE = /\u0000|[\ud800-\udfff]/u;

/** The text, or null when PostgreSQL could not store it as it is. */
export const storableOrNull = (text: string | null): string | null =>
  text === null || !UNSTORABLE.test(text) ? text : null;
