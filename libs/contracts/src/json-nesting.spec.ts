import fc from 'fast-check';
import { parseEvent } from './event-validator.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-nesting.js';

// RULES.md "Validation order": a value nested more than 32 levels deep is invalid JSON; an
// event needs three (event object = 1, players array = 2, player object = 3).

/** The reference: the depth of a parsed value, by recursion (fine for the small values here). */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0;

/** `levels` arrays and objects inside one another, alternating, around `core`. */
function nested(levels: number, core = '1'): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 1; level <= levels; level++) {
    open.push(level % 2 ? '[' : '{"k":');
    close.push(level % 2 ? ']' : '}');
  }
  return open.join('') + core + close.reverse().join('');
}

const game = {
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
/** The game with an extra field whose value makes the whole event `levels` deep. */
const gameOfDepth = (levels: number): string =>
  JSON.stringify(game).replace(/}$/, `,"extra":${nested(levels - 1)}}`);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects alike, up to the limit and no further', () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
    expect(nestsDeeperThan('[]', 0)).toBe(true);
    expect(nestsDeeperThan('1', 0)).toBe(false);
    expect(MAX_JSON_DEPTH).toBe(32);
  });

  it('counts the deepest branch, not every bracket', () => {
    const wide = `[${Array.from({ length: 100 }, () => nested(31)).join(',')}]`;
    expect(nestsDeeperThan(wide, 32)).toBe(false);
  });

  it.each([
    ['brackets in a string', `["${'['.repeat(40)}"]`, false],
    ['brackets after an escaped quote in a string', `["\\"${'{'.repeat(40)}"]`, false],
    ['brackets after an escaped backslash (the string ended)', `["\\\\",${nested(32)}]`, true],
    ['brackets after three backslashes and a quote', `["\\\\\\"${'['.repeat(40)}"]`, false],
    ['brackets in a key', `{"${'{'.repeat(40)}":1}`, false],
    ['an unterminated string', `["${'['.repeat(40)}`, false],
  ])('reads %s', (_what, text, deeper) => {
    expect(nestsDeeperThan(text, 32)).toBe(deeper);
  });

  it('agrees with the depth of any JSON value', () => {
    const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ') });
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), (v, limit) => {
        expect(nestsDeeperThan(JSON.stringify(v), limit)).toBe(depthOf(v) > limit);
      }),
      { numRuns: 2000 },
    );
  });

  // No wall-clock limits here (a loaded machine makes them flaky): a scan that recursed would
  // overflow the stack on these inputs, and one that went quadratic would take hours, far past
  // Jest's timeout.
  it('rejects a million [ at once, and a million-deep valid value, with no stack overflow', () => {
    expect(nestsDeeperThan('['.repeat(1_000_000))).toBe(true);
    expect(nestsDeeperThan('['.repeat(1_000_000) + ']'.repeat(1_000_000))).toBe(true);
  });

  it('reads a long string of backslashes and quotes in linear time', () => {
    const text = `["${'\\"'.repeat(500_000)}"]`;
    expect(nestsDeeperThan(text)).toBe(false);
  });
});

describe('parseEvent and the nesting limit', () => {
  it('accepts an event 32 levels deep and rejects one 33 deep as invalid-json', () => {
    expect(parseEvent(gameOfDepth(3))).toMatchObject({ ok: true });
    expect(parseEvent(gameOfDepth(32))).toMatchObject({ ok: true });
    expect(parseEvent(gameOfDepth(33))).toEqual({
      ok: false,
      rejection: { code: 'invalid-json', detail: 'nested more than 32 levels deep' },
      id: null,
    });
  });

  it('rejects a line of 65,536 [ (the largest value read) as invalid-json, with no stack overflow', () => {
    expect(parseEvent('['.repeat(65_536))).toMatchObject({
      ok: false,
      rejection: { code: 'invalid-json' },
      id: null,
    });
  });

  it('rejects a line of a million [ by its size before its nesting is looked at', () => {
    // CONTRACT.md "Transport": over 65,536 bytes is invalid-event, decided before parsing.
    expect(parseEvent('['.repeat(1_000_000))).toMatchObject({
      ok: false,
      rejection: { code: 'invalid-event' },
      id: null,
    });
    expect(parseEvent(gameOfDepth(1_000_000))).toMatchObject({
      ok: false,
      rejection: { code: 'invalid-event' },
      id: null,
    });
  });
});
