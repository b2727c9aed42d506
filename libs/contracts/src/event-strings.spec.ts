import { parseEvent, validateEvent } from './event-validator.js';

// RULES.md "Strings and instants": identifiers hold no control character (U+0000-U+001F,
// U+007F-U+009F) and no unpaired surrogate; free text holds no U+0000 and no unpaired
// surrogate. Both come from the schema's patterns, which ajv compiles with the `u` flag.

type Json = Record<string, unknown>;
type Path = readonly (string | number)[];

const game: Json = {
  id: 'e-1',
  type: 'game.finished',
  ladder: 'qq-blokus',
  gameId: 'g-1',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  reason: 'five',
  context: {
    tournament: true,
    match: { tournament: 'spring', group: 'g1', match: 'g1-a-b' },
  },
  players: [
    { id: 'alice', result: 'win', team: 'red', ip: '203.0.113.7', remaining: 0 },
    { id: 'bob', result: 'loss', team: 'blue', ip: '198.51.100.2', remaining: 3 },
  ],
};
const correction: Json = {
  id: 'c-1',
  type: 'game.corrected',
  ladder: 'qq-blokus',
  gameId: 'g-1',
  correctedAt: '2026-11-30T09:00:00+08:00',
  void: true,
  note: 'complaint #12',
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

/** A deep copy of `event` with the value at `path` replaced. */
function withValue(event: Json, path: Path, value: string): Json {
  const copy = structuredClone(event);
  let node: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

/** The verdict on the event sent as JSON text (as a service or a file would). */
function verdict(event: Json): string {
  const outcome = parseEvent(JSON.stringify(event));
  return outcome.ok ? 'ok' : `${outcome.rejection.code}: ${outcome.rejection.detail}`;
}

const IDENTIFIERS: [string, Json, Path][] = [
  ['event id', game, ['id']],
  ['gameId of game.finished', game, ['gameId']],
  ['gameId of game.corrected', correction, ['gameId']],
  ['player id', game, ['players', 1, 'id']],
  ['penalized player', penalty, ['player']],
  ['team', game, ['players', 0, 'team']],
  ['ip', game, ['players', 1, 'ip']],
  ['match reference tournament', game, ['context', 'match', 'tournament']],
  ['match reference group', game, ['context', 'match', 'group']],
  ['match reference match', game, ['context', 'match', 'match']],
];
const FREE_TEXT: [string, Json, Path][] = [
  ['reason of game.finished', game, ['reason']],
  ['reason of player.penalized', penalty, ['reason']],
  ['note of game.corrected', correction, ['note']],
];

type Case = readonly [string, string];

const CONTROL: readonly Case[] = [
  ['NUL', 'a\u0000b'],
  ['U+001F', 'a\u001fb'],
  ['U+007F', 'a\u007fb'],
  ['U+0085', 'a\u0085b'],
  ['U+009F', 'a\u009fb'],
];
const UNPAIRED: readonly Case[] = [
  ['a lone high surrogate', 'a\ud83db'],
  ['a lone high surrogate at the end', 'ab\ud83d'],
  ['a lone low surrogate', 'a\ude00b'],
  ['a lone low surrogate at the start', '\ude00ab'],
  ['a pair in the wrong order', 'a\ude00\ud83db'],
];
const WELL_FORMED: readonly Case[] = [
  ['an emoji (a surrogate pair)', 'a😀b'],
  ['a supplementary CJK character (a surrogate pair)', '𠀀'],
  ['CJK', '棋手'],
  ['U+00A0 (just past the C1 controls)', 'a\u00a0b'],
];

describe('identifiers (the schema name pattern)', () => {
  it('accepts every example as it is', () => {
    for (const event of [game, correction, penalty]) expect(verdict(event)).toBe('ok');
  });

  describe.each(IDENTIFIERS)('%s', (_field, event, path) => {
    const where = `/${path.join('/')}`;

    it.each([...CONTROL, ...UNPAIRED])('rejects %s as invalid-event', (_what, value) => {
      const outcome = validateEvent(withValue(event, path, value));
      expect(outcome).toMatchObject({ ok: false, rejection: { code: 'invalid-event' } });
      if (!outcome.ok) expect(outcome.rejection.detail).toContain(where);
      expect(verdict(withValue(event, path, value))).toMatch(/^invalid-event: /);
    });

    it.each(WELL_FORMED)('accepts %s', (_what, value) => {
      expect(verdict(withValue(event, path, value))).toBe('ok');
    });
  });
});

describe('free text (the schema text pattern)', () => {
  describe.each(FREE_TEXT)('%s', (_field, event, path) => {
    it.each([CONTROL[0]!, ...UNPAIRED])('rejects %s as invalid-event', (_what, value) => {
      expect(verdict(withValue(event, path, value))).toMatch(
        new RegExp(`^invalid-event: /${path.join('/')}`),
      );
    });

    it.each<Case>([
      ['a tab', 'a\tb'],
      ['a line feed', 'a\nb'],
      ['U+001F', 'a\u001fb'],
      ['U+007F', 'a\u007fb'],
      ['U+0085', 'a\u0085b'],
      ['U+009F', 'a\u009fb'],
      ...WELL_FORMED,
    ])('accepts %s', (_what, value) => {
      expect(verdict(withValue(event, path, value))).toBe('ok');
    });
  });
});

describe('the u flag', () => {
  it('reads a surrogate pair as one character for the length limits too', () => {
    // 128 emoji are 256 UTF-16 code units but 128 characters: within the id's 1-128.
    expect(verdict({ ...game, id: '😀'.repeat(128) })).toBe('ok');
    expect(verdict({ ...game, id: '😀'.repeat(129) })).toMatch(/^invalid-event: \/id/);
  });
});
