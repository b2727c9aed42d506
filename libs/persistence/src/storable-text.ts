/**
 * What PostgreSQL text cannot hold: NUL, and unpaired surrogates (no UTF-8 form: node-pg would
 * send U+FFFD in their place, silently changing the text).
 */
const UNSTORABLE = /\u0000|[\ud800-\udfff]/gu;

/** The text, or null when PostgreSQL could not store it as it is. */
export const storableOrNull = (text: string | null): string | null =>
  text === null || !new RegExp(UNSTORABLE.source, 'u').test(text) ? text : null;

/** The text with what PostgreSQL cannot hold written as `\uXXXX` escapes (for details and logs). */
export const storableText = (text: string): string =>
  text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
