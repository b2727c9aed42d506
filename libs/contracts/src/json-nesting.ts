/** RULES.md: a value nested deeper than this is invalid JSON, so every reader agrees (an event needs 3). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when the JSON text opens more than `limit` arrays or objects inside one another. Run
 * before JSON.parse: one pass, no recursion, stopping at the first level too deep, so a line of
 * a million `[` costs neither the stack (later readers of the value recurse) nor much time.
 * Brackets inside strings do not count. It needs to be exact for valid JSON only: whatever
 * it misreads in a broken text, JSON.parse rejects that text as well.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  // An event opens a handful of brackets: if the whole text holds no more than `limit`, no
  // value can nest deeper, and counting them with indexOf is several times faster than a scan.
  if (bracketsAtMost(text, limit)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote (indexOf is much faster than a loop here): the first one
      // after an even run of backslashes.
      let end = i;
      do {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
      } while (escaped(text, end));
      i = end;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/** Whether the text holds at most `limit` opening brackets, in strings or not. */
function bracketsAtMost(text: string, limit: number): boolean {
  let opens = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) {
      if (++opens > limit) return false;
    }
  }
  return true;
}
