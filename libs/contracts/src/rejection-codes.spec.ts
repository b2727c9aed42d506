import fc from 'fast-check';
import { parseEvent, validateEvent } from './event-validator.js';
import { reject, safeDetail } from './rejection-codes.js';

// A rejection's detail is stored in PostgreSQL text, sent as a Kafka header and logged, so it
// holds no control character (U+0000-U+001F, U+007F-U+009F) and no unpaired surrogate.

/** True when the text can be stored and encoded faithfully: no control, no lone surrogate. */
function isSafe(text: string): boolean {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return false;
  // UTF-8 has no form for a lone surrogate: the round trip replaces it. The decoder keeps a
  // leading U+FEFF (by default it drops it as a byte order mark, so a safe text starting with
  // one read as unsafe: about one draw in 70,000).
  return (
    new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(text)) === text
  );
}

/** Any UTF-16 code units, lone surrogates and controls included. */
const anyUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
});

describe('safeDetail', () => {
  it.each([
    ['NUL', 'a\u0000b', 'a\\u0000b'],
    ['a tab and a line feed', 'a\tb\nc', 'a\\u0009b\\u000ac'],
    ['U+001F and U+007F', '\u001f\u007f', '\\u001f\\u007f'],
    ['C1 controls', '\u0080\u0085\u009f', '\\u0080\\u0085\\u009f'],
    ['a lone high surrogate', 'a\ud83d', 'a\\ud83d'],
    ['a lone low surrogate', '\ude00a', '\\ude00a'],
    ['a pair in the wrong order', '\ude00\ud83d', '\\ude00\\ud83d'],
  ])('writes %s as \\uXXXX', (_what, detail, safe) => {
    expect(safeDetail(detail)).toBe(safe);
    expect(reject('invalid-json', detail)).toEqual({ code: 'invalid-json', detail: safe });
  });

  it.each([
    ['ASCII', '/players/0/result must be one of "win", "loss", "draw"'],
    ['an emoji (a surrogate pair)', 'player 😀 is not in game 𠀀'],
    ['CJK and U+00A0', '棋手\u00a0二'],
    ['a leading U+FEFF', '\ufeffplayer'],
  ])('keeps %s as it is', (_what, detail) => {
    expect(safeDetail(detail)).toBe(detail);
  });

  it('makes any text safe, and changes nothing in a safe one', () => {
    fc.assert(
      fc.property(anyUnits, (text) => {
        const safe = safeDetail(text);
        expect(isSafe(safe)).toBe(true);
        if (isSafe(text)) expect(safe).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('details of parsed lines', () => {
  it.each([
    ['a NUL in place of a value', '{"id":"x","a":\u0000}'],
    ['a raw control character in a string', '{"id":"x\u0001y"}'],
    ['a C1 control after the value', '{"id":"x"}\u0085'],
    ['a lone surrogate after the value', '{"id":"x"} \ud800'],
    ['a lone surrogate in place of a value', '{"id":\udc00}'],
    ['an unterminated string with controls', '{"id":"\u0000\u0007\u001b[31m'],
  ])('JSON.parse quotes the input; the detail escapes it: %s', (_what, line) => {
    const outcome = parseEvent(line);
    expect(outcome).toMatchObject({ ok: false, rejection: { code: 'invalid-json' } });
    if (!outcome.ok) expect(isSafe(outcome.rejection.detail)).toBe(true);
  });

  it('any line gets a safe detail', () => {
    fc.assert(
      fc.property(anyUnits, (line) => {
        const outcome = parseEvent(`{"id":"e",${line}`);
        if (!outcome.ok) expect(isSafe(outcome.rejection.detail)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the rejected id as the event has it (the contract), while the detail is safe', () => {
    const outcome = validateEvent({ id: 'a\u0000\ud800', type: 'game.finished', ladder: 'x' });
    expect(outcome).toMatchObject({ ok: false, id: 'a\u0000\ud800' });
    if (!outcome.ok) expect(isSafe(outcome.rejection.detail)).toBe(true);
  });
});
