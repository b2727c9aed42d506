import { generateEvents } from '@ranking/generator';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';

// Ids are any strings, so `__proto__`, `constructor`, `toString` and `hasOwnProperty` are ids
// like any other: as player ids, teams, event and game ids, and as JSON keys. A plain object
// used as a map would lose or mix them up; the fold and the output must not.

const LADDERS = ladderRegistry();
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;
const UNTIL = Date.parse('2026-12-20T06:00:00+08:00');

type Standing = Record<string, unknown>;
interface Output {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: unknown[];
  void: unknown[];
}

/** A stream over every built-in ladder, few players a ladder, so the renamed ones play a lot. */
const stream = [
  ...generateEvents({ seed: 11, events: 4000, playersPerLadder: 8, days: 40, closes: false }),
];

/** Player `<prefix>1` .. `<prefix>5` of every ladder get the names of Object.prototype. */
const renamed = (id: string): string => {
  const m = /^[a-z]+([1-5])$/.exec(id);
  return m ? NAMES[Number(m[1]) - 1]! : id;
};
const renameLine = (line: string): string =>
  line
    .replace(/"(id|player)":"([a-z]+[1-5])"/g, (_all, key: string, id: string) => {
      return `"${key}":"${renamed(id)}"`;
    })
    .replace(/"team":"red"/g, '"team":"__proto__"')
    .replace(/"team":"blue"/g, '"team":"constructor"');

function replay(lines: readonly string[]): { out: Output; engine: ReplayEngine } {
  const engine = new ReplayEngine(LADDERS, { simulate: true });
  for (const line of lines) engine.ingestLine(line);
  engine.finish(UNTIL);
  return { out: JSON.parse([...engine.render()].join('')) as Output, engine };
}

/** A ladder's players as a Map built from own properties only (JSON.parse makes `__proto__` one). */
const playersOf = (out: Output, ladder: string): Map<string, Standing> =>
  new Map(Object.entries(out.ladders[ladder]?.players ?? {}));

describe('ids named like Object.prototype members', () => {
  const plain = replay(stream).out;
  const odd = replay(stream.map(renameLine));

  it('renames players of every ladder, who play many games', () => {
    expect(stream.map(renameLine).join('\n')).toContain('"id":"__proto__"');
    for (const ladder of Object.keys(plain.ladders)) {
      const players = playersOf(odd.out, ladder);
      if (players.size === 0) continue;
      for (const name of NAMES) expect(players.has(name)).toBe(true);
    }
  });

  it('folds them exactly as the same players under plain ids, on every ladder', () => {
    expect(Object.keys(odd.out.ladders)).toEqual(Object.keys(plain.ladders));
    for (const ladder of Object.keys(plain.ladders)) {
      const expected = new Map(
        [...playersOf(plain, ladder)].map(([id, standing]) => [renamed(id), standing]),
      );
      expect(playersOf(odd.out, ladder)).toEqual(expected);
    }
    expect(odd.out.rejected).toEqual(plain.rejected);
    expect(odd.out.void).toEqual(plain.void);
  });

  it('keeps them in the fold as players of their own (not the prototype)', () => {
    const fold = odd.engine.ladderFolds.get('igame-gomoku')!;
    for (const name of NAMES) {
      expect(fold.players.get(name)).toMatchObject({ id: name });
      expect(fold.players.get(name)!.games).toBeGreaterThan(0);
    }
  });

  it('writes them as JSON keys a reader gets back as own properties', () => {
    const text = [...odd.engine.render()].join('');
    expect(text).toContain('\n"__proto__":{');
    const players = (JSON.parse(text) as Output).ladders['qq-gomoku']!.players;
    expect(Object.hasOwn(players, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(players)).toBe(Object.prototype);
  });
});

describe('event and game ids named like Object.prototype members, and such JSON keys', () => {
  const game = (id: string, gameId: string, at: string): Record<string, unknown> => ({
    id,
    type: 'game.finished',
    ladder: 'qq-gomoku',
    gameId,
    finishedAt: at,
    moves: 40,
    players: [
      { id: '__proto__', result: 'win' },
      { id: 'constructor', result: 'loss' },
    ],
  });

  it('remembers, corrects and lists them like any other id', () => {
    const engine = new ReplayEngine(LADDERS);
    const first = game('__proto__', 'constructor', '2026-11-29T10:00:00+08:00');
    expect(engine.ingestLine(JSON.stringify(first)).kind).toBe('accepted');
    expect(engine.ingestLine(JSON.stringify(first))).toEqual({
      kind: 'duplicate',
      id: '__proto__',
    });
    const second = game('constructor', 'toString', '2026-11-29T11:00:00+08:00');
    expect(engine.ingestLine(JSON.stringify(second)).kind).toBe('accepted');
    // Correct the first game (gameId "constructor") in favour of the loser.
    const correction = {
      id: 'hasOwnProperty',
      type: 'game.corrected',
      ladder: 'qq-gomoku',
      gameId: 'constructor',
      correctedAt: '2026-11-30T10:00:00+08:00',
      players: [
        { id: '__proto__', result: 'loss' },
        { id: 'constructor', result: 'win' },
      ],
    };
    expect(engine.ingestLine(JSON.stringify(correction)).kind).toBe('accepted');
    const unknown = { ...correction, id: 'valueOf', gameId: 'valueOf' };
    expect(engine.ingestLine(JSON.stringify(unknown))).toMatchObject({ reason: 'unknown-game' });
    const out = JSON.parse([...engine.render()].join('')) as Output;
    // 0/0: __proto__ +10, constructor -10; then at 10/-10 (d = 20): __proto__ +8, constructor -8;
    // the correction turns game 1 into a loss from 0/0: -10 - (+10) = -20 for __proto__.
    expect(playersOf(out, 'qq-gomoku')).toEqual(
      new Map([
        ['__proto__', expect.objectContaining({ rating: -2, games: 2, wins: 1, losses: 1 })],
        ['constructor', expect.objectContaining({ rating: 2, games: 2, wins: 1, losses: 1 })],
      ]),
    );
    expect(out.rejected).toEqual([{ id: 'valueOf', reason: 'unknown-game' }]);
  });

  it('takes "__proto__" and "constructor" JSON keys as plain fields, polluting nothing', () => {
    const engine = new ReplayEngine(LADDERS);
    const valid = JSON.stringify(game('k-1', 'g-k-1', '2026-11-29T10:00:00+08:00'));
    const extra = valid.replace(
      /}$/,
      ',"__proto__":{"type":"period.closed","polluted":true},"constructor":{"x":1}}',
    );
    expect(engine.ingestLine(extra)).toMatchObject({ kind: 'accepted' });
    // A player object's __proto__ key does not give it a result.
    const noResult = JSON.stringify(game('k-2', 'g-k-2', '2026-11-29T11:00:00+08:00')).replace(
      '{"id":"constructor","result":"loss"}',
      '{"id":"constructor","__proto__":{"result":"loss"}}',
    );
    expect(engine.ingestLine(noResult)).toMatchObject({
      kind: 'rejected',
      reason: 'invalid-event',
    });
    // An event whose fields are all under __proto__ has none of them.
    const hidden = `{"__proto__":${valid.replace('"id":"k-1"', '"id":"k-3"')}}`;
    expect(engine.ingestLine(hidden)).toMatchObject({
      kind: 'rejected',
      reason: 'invalid-event',
      id: null,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(engine.ladderFolds.get('qq-gomoku')!.accepted).toBe(1);
  });
});
