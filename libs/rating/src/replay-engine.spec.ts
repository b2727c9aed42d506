import { jest } from '@jest/globals';
import type { LadderEvent, PlayerReport } from '@ranking/contracts';
import { ladderRegistry, LadderFold, ReplayEngine } from '@ranking/rating';
import { win, loss, draw } from './reports.fixture.js';

// CONTRACT.md "Offline replay" and RULES.md "Details the tests rely on" (validation order).
// Expected numbers are worked out by hand from RULES.md in the comment beside them.

const LADDERS = ladderRegistry();

type Standing = Record<string, number | string | boolean>;
interface Output {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string | null; reason: string }[];
}

let counter = 0;
const nextId = (): string => `ev-${++counter}`;
type Json = Record<string, unknown>;

function finished(
  ladder: string,
  gameId: string,
  finishedAt: string,
  players: PlayerReport[],
  extra: Json = {},
): Json {
  return {
    id: nextId(),
    type: 'game.finished',
    ladder,
    gameId,
    finishedAt,
    moves: 60,
    players,
    ...extra,
  };
}

function close(
  ladder: string,
  period: 'daily' | 'weekly' | 'monthly',
  key: string,
  extra: Json = {},
): Json {
  return {
    id: `period.closed:${ladder}:${period}:${key}`,
    type: 'period.closed',
    ladder,
    period,
    key,
    start: '2026-01-01T00:00:00+08:00',
    end: '2026-01-01T00:00:00+08:00',
    ...extra,
  };
}

const line = (e: Json | string): string => (typeof e === 'string' ? e : JSON.stringify(e));

function replay(
  events: readonly (Json | string)[],
  simulate = false,
  until: string | null = null,
): ReplayEngine {
  const engine = new ReplayEngine(LADDERS, { simulate });
  for (const e of events) engine.ingestLine(line(e));
  engine.finish(until === null ? null : Date.parse(until));
  return engine;
}

const text = (engine: ReplayEngine): string => [...engine.render()].join('');
const output = (engine: ReplayEngine): Output => JSON.parse(text(engine)) as Output;
const standing = (out: Output, ladder: string, id: string): Standing | undefined =>
  out.ladders[ladder]?.players[id];

const QQ = 'qq-gomoku';
const IG = 'igame-gomoku';
const XQ = 'qq-xiangqi';
const XB = 'xinbo-go';
const SQ = 'qq-blokus';
const FK = 'qq-fifty-k';

/** A player report without a result (schema-valid, but every rule set but card-points needs one). */
const bare = (id: string): PlayerReport => ({ id });

/** A qq-gomoku game that is valid: ann beats bob, 0/0 -> ann 10, bob -10. */
const annBeatsBob = (id: string): Json => ({
  id,
  type: 'game.finished',
  ladder: QQ,
  gameId: `g-${id}`,
  finishedAt: '2026-11-29T10:00:00+08:00',
  moves: 40,
  players: [win('ann'), loss('bob')],
});

describe('ReplayEngine', () => {
  describe('validation order (one input per rejection code, each also failing every later check)', () => {
    it.each<[string, string, Json | string, string | null]>([
      [
        'invalid-json',
        'a truncated line whose ladder is also unknown',
        '{"id":"j1","type":"game.finished","ladder":"nope","players":[',
        null,
      ],
      [
        'invalid-event',
        'a date-time without offset, unknown ladder, three duplicate players without results',
        {
          id: 's1',
          type: 'game.finished',
          ladder: 'nope',
          gameId: 'g',
          finishedAt: '2026-11-29T13:05:00',
          moves: 1,
          players: [bare('x'), bare('x'), bare('y')],
        },
        's1',
      ],
      [
        'unknown-ladder',
        'an unknown ladder, three duplicate players without results',
        {
          ...annBeatsBob('l1'),
          ladder: 'no-such-ladder',
          players: [bare('x'), bare('x'), bare('y')],
        },
        'l1',
      ],
      [
        'wrong-player-count',
        'three players in qq-gomoku, two of them the same, without results',
        { ...annBeatsBob('c1'), players: [bare('x'), bare('x'), bare('y')] },
        'c1',
      ],
      [
        'duplicate-player',
        'the same player twice, without results',
        { ...annBeatsBob('d1'), players: [bare('x'), bare('x')] },
        'd1',
      ],
      [
        'invalid-event',
        'a missing result next to a win (which would also not fit one game)',
        { ...annBeatsBob('f1'), players: [win('x'), bare('y')] },
        'f1',
      ],
      [
        'unknown-game',
        'a correction of a game never seen, with results that do not fit one game',
        {
          id: 'u1',
          type: 'game.corrected',
          ladder: QQ,
          gameId: 'never',
          correctedAt: '2026-11-29T13:05:00+08:00',
          players: [win('x'), win('y')],
        },
        'u1',
      ],
      [
        'inconsistent-result',
        'two winners',
        { ...annBeatsBob('i1'), players: [win('x'), win('y')] },
        'i1',
      ],
    ])(
      'Given %s: %s, When it is replayed, Then it is rejected with that code',
      (code, _what, input, id) => {
        // Given / When
        const engine = new ReplayEngine(LADDERS);
        const result = engine.ingestLine(line(input));
        // Then
        expect(result).toMatchObject({ kind: 'rejected', reason: code, id });
        expect(output(engine)).toEqual({ ladders: {}, rejected: [{ id, reason: code }], void: [] });
      },
    );

    it('Given an accepted id, When the same id comes again with an unknown ladder, Then it is ignored (the repeat check comes before unknown-ladder)', () => {
      // Given
      const engine = new ReplayEngine(LADDERS);
      engine.ingestLine(line(annBeatsBob('r1')));
      // When
      const again = engine.ingestLine(line({ ...annBeatsBob('r1'), ladder: 'no-such-ladder' }));
      // Then
      expect(again).toEqual({ kind: 'duplicate', id: 'r1' });
      const out = output(engine);
      expect(out.rejected).toEqual([]);
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, games: 1 });
    });

    it('Given an accepted id, When the same id comes again failing the schema, Then it is rejected (the schema check comes before the repeat check)', () => {
      const engine = new ReplayEngine(LADDERS);
      engine.ingestLine(line(annBeatsBob('r1')));
      const again = engine.ingestLine(line({ ...annBeatsBob('r1'), moves: -1 }));
      expect(again).toMatchObject({ kind: 'rejected', reason: 'invalid-event', id: 'r1' });
    });

    it('Given a correction of an unknown game with three players, When it is replayed, Then wrong-player-count comes before unknown-game', () => {
      const engine = replay([
        {
          id: 'u2',
          type: 'game.corrected',
          ladder: QQ,
          gameId: 'never',
          correctedAt: '2026-11-29T13:05:00+08:00',
          players: [win('x'), loss('y'), loss('z')],
        },
        {
          id: 'u3',
          type: 'game.corrected',
          ladder: QQ,
          gameId: 'never',
          correctedAt: '2026-11-29T13:05:00+08:00',
          players: [win('x'), loss('x')],
        },
      ]);
      expect(output(engine).rejected).toEqual([
        { id: 'u2', reason: 'wrong-player-count' },
        { id: 'u3', reason: 'duplicate-player' },
      ]);
    });

    describe('fields a rule set needs are invalid-event, before inconsistent-result', () => {
      const base = (ladder: string, players: PlayerReport[], extra: Json = {}): Json => ({
        id: 'need',
        type: 'game.finished',
        ladder,
        gameId: 'g',
        finishedAt: '2026-11-29T10:00:00+08:00',
        moves: 60,
        players,
        ...extra,
      });
      it.each<[string, Json]>([
        ['squares without remaining', base(SQ, [win('a'), win('b', { remaining: 1 })])],
        [
          'four-player squares without team',
          base(SQ, [
            win('a', { remaining: 1, team: 'x' }),
            win('b', { remaining: 1 }),
            loss('c', { remaining: 0, team: 'x' }),
            loss('d', { remaining: 0, team: 'y' }),
          ]),
        ],
        [
          'card-points without seat',
          base(FK, [
            { id: 'a', tablePoints: 0, finishOrder: 1, handPoints: 0 },
            { id: 'b', seat: 1, tablePoints: 0, finishOrder: 2, handPoints: 0 },
            { id: 'c', seat: 2, tablePoints: 0, finishOrder: 3, handPoints: 0 },
          ]),
        ],
        [
          'card-points with a repeated seat',
          base(FK, [
            { id: 'a', seat: 1, tablePoints: 0, finishOrder: 1, handPoints: 0 },
            { id: 'b', seat: 1, tablePoints: 0, finishOrder: 2, handPoints: 0 },
            { id: 'c', seat: 2, tablePoints: 0, finishOrder: 3, handPoints: 0 },
          ]),
        ],
        [
          'card-points without tablePoints',
          base(FK, [
            { id: 'a', seat: 0, finishOrder: 1, handPoints: 0 },
            { id: 'b', seat: 1, tablePoints: 0, finishOrder: 1, handPoints: 0 },
            { id: 'c', seat: 2, tablePoints: 0, finishOrder: 1, handPoints: 0 },
          ]),
        ],
        [
          'card-points without finishOrder',
          base(FK, [
            { id: 'a', seat: 0, tablePoints: 0, handPoints: 0 },
            { id: 'b', seat: 1, tablePoints: 0, finishOrder: 1, handPoints: 0 },
            { id: 'c', seat: 2, tablePoints: 0, finishOrder: 1, handPoints: 0 },
          ]),
        ],
        [
          'card-points without handPoints',
          base(FK, [
            { id: 'a', seat: 0, tablePoints: 0, finishOrder: null },
            { id: 'b', seat: 1, tablePoints: 0, finishOrder: 1, handPoints: 0 },
            { id: 'c', seat: 2, tablePoints: 0, finishOrder: 1, handPoints: 0 },
          ]),
        ],
        ['qq-elo without a first mover', base(XQ, [win('a'), win('b')])],
        [
          'qq-elo with two first movers',
          base(XQ, [win('a', { first: true }), win('b', { first: true })]),
        ],
        [
          'a capture game without captureTarget',
          base(XB, [win('a', { captures: 1 }), win('b', { captures: 1 })], {
            context: { kind: 'capture' },
          }),
        ],
        [
          'a capture game without captures',
          base(XB, [win('a', { captures: 1 }), win('b')], {
            context: { kind: 'capture', captureTarget: 3 },
          }),
        ],
        [
          'a handicap-1 game with two black players',
          base(XB, [win('a', { side: 'black' }), win('b', { side: 'black' })], {
            context: { handicap: 1 },
          }),
        ],
        ['a two-player game without results', base(IG, [bare('a'), bare('b')])],
      ])('Given %s, When it is replayed, Then it is rejected (invalid-event)', (_what, event) => {
        expect(new ReplayEngine(LADDERS).ingestLine(line(event))).toMatchObject({
          kind: 'rejected',
          reason: 'invalid-event',
        });
      });

      it('Given card-points without results, When it is replayed, Then it is accepted (result is optional there)', () => {
        // ann out 1st (table 30): 50; bob 2nd (20): 20; cat holding (10, hand 15): 10 - 20 - 15 = -25
        const out = output(
          replay([
            base(FK, [
              { id: 'ann', seat: 0, tablePoints: 30, finishOrder: 1, handPoints: 0 },
              { id: 'bob', seat: 1, tablePoints: 20, finishOrder: 2, handPoints: 0 },
              { id: 'cat', seat: 2, tablePoints: 10, finishOrder: null, handPoints: 15 },
            ]),
          ]),
        );
        expect(out.rejected).toEqual([]);
        expect(standing(out, FK, 'cat')).toMatchObject({ rating: -25, losses: 1 });
      });
    });

    it.each<[string, Json]>([
      [
        'a correction with neither void: true nor players',
        {
          id: 'cv',
          type: 'game.corrected',
          ladder: QQ,
          gameId: 'g',
          correctedAt: '2026-11-29T10:00:00+08:00',
          void: false,
        },
      ],
      ['finishedAt without an offset', { ...annBeatsBob('t1'), finishedAt: '2026-11-29T10:00:00' }],
      ['a day key that is not a real date', close(QQ, 'daily', '2026-02-30')],
      ['a week key past the last ISO week', close(QQ, 'weekly', '2026-W54')],
      ['a week 53 in a 52-week year', close(QQ, 'weekly', '2025-W53')],
      ['a month 13', close(QQ, 'monthly', '2026-13')],
      ['a month key for a daily period', close(QQ, 'daily', '2026-11')],
    ])('Given %s, When it is replayed, Then it is rejected (invalid-event)', (_what, event) => {
      expect(new ReplayEngine(LADDERS).ingestLine(line(event))).toMatchObject({
        kind: 'rejected',
        reason: 'invalid-event',
      });
    });

    it.each<[string, Json]>([
      ['a UTC instant', { ...annBeatsBob('t2'), finishedAt: '2026-11-29T02:00:00Z' }],
      ['week 53 of 2026', close(QQ, 'weekly', '2026-W53')],
      ['29 February of a leap year', close(QQ, 'daily', '2028-02-29')],
    ])('Given %s, When it is replayed, Then it is accepted', (_what, event) => {
      expect(new ReplayEngine(LADDERS).ingestLine(line(event))).toMatchObject({ kind: 'accepted' });
    });
  });

  describe('ids, lines and listings', () => {
    it('Given a rejected event, When it is sent again with the same id and fixed, Then it is applied; a third copy is ignored', () => {
      // Given x1 with two winners (rejected)
      const bad = { ...annBeatsBob('x1'), players: [win('ann'), win('bob')] };
      // When x1 comes again, fixed, then once more
      const engine = replay([bad, annBeatsBob('x1'), annBeatsBob('x1')]);
      // Then applied once: ann 10, bob -10 (0/0, gain 10)
      const out = output(engine);
      expect(out.rejected).toEqual([{ id: 'x1', reason: 'inconsistent-result' }]);
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, games: 1 });
      expect(standing(out, QQ, 'bob')).toMatchObject({ rating: -10, games: 1 });
    });

    it('Given a void game, When its id comes again with a valid game, Then it is ignored (void games are remembered)', () => {
      // Given a same-ip game (void)
      const voidGame = finished(IG, 'v', '2026-11-29T10:00:00+08:00', [
        win('ann', { ip: '1' }),
        loss('bob', { ip: '1' }),
      ]);
      // When the same id comes again with different ips
      const engine = new ReplayEngine(LADDERS);
      engine.ingestLine(line(voidGame));
      const again = engine.ingestLine(
        line({ ...voidGame, players: [win('ann', { ip: '1' }), loss('bob', { ip: '2' })] }),
      );
      // Then it is a duplicate, and nobody's rating moved
      expect(again).toEqual({ kind: 'duplicate', id: voidGame.id });
      const out = output(engine);
      expect(out.void).toEqual([{ id: voidGame.id, reason: 'same-ip' }]);
      expect(standing(out, IG, 'ann')?.rating ?? 1600).toBe(1600);
    });

    it.each([
      [
        'NaN',
        '{"id":"n1","type":"game.finished","ladder":"qq-gomoku","gameId":"g","finishedAt":"2026-11-29T10:00:00+08:00","moves":NaN,"players":[{"id":"a","result":"win"},{"id":"b","result":"loss"}]}',
      ],
      [
        'Infinity',
        '{"id":"n2","type":"player.penalized","ladder":"qq-gomoku","player":"a","points":-Infinity,"reason":"x","at":"2026-11-29T10:00:00+08:00"}',
      ],
      ['a trailing comma', '{"id":"n3",}'],
    ])(
      'Given a line with %s, When it is replayed, Then it is invalid-json with id null',
      (_what, input) => {
        const engine = new ReplayEngine(LADDERS);
        expect(engine.ingestLine(input)).toMatchObject({
          kind: 'rejected',
          reason: 'invalid-json',
          id: null,
        });
        expect(output(engine).rejected).toEqual([{ id: null, reason: 'invalid-json' }]);
      },
    );

    it('Given a player.annulled line, When it is replayed, Then it is accepted and its id remembered', () => {
      const annulled = {
        id: 'ann-1',
        type: 'player.annulled',
        ladder: QQ,
        player: 'ann',
        since: '2026-11-01T00:00:00+08:00',
        annulledAt: '2026-12-01T10:00:00+08:00',
      };
      const engine = new ReplayEngine(LADDERS);
      expect(engine.ingestLine(line(annulled))).toMatchObject({ kind: 'accepted' });
      expect(engine.ingestLine(line({ ...annBeatsBob('ann-1') }))).toEqual({
        kind: 'duplicate',
        id: 'ann-1',
      });
    });

    it('Given blank lines, When they are replayed, as text or bytes, Then they are skipped', () => {
      const engine = new ReplayEngine(LADDERS);
      for (const blank of ['', '   ', '\t', '\r', ' \t\r \r']) {
        expect(engine.ingestLine(blank)).toEqual({ kind: 'skipped' });
        expect(engine.ingestLine(Buffer.from(blank))).toEqual({ kind: 'skipped' });
      }
      expect(output(engine)).toEqual({ ladders: {}, rejected: [], void: [] });
    });

    it.each([
      ['U+3000 (ideographic space)', '\u3000'],
      ['U+00A0 (no-break space)', '\u00a0'],
      ['U+FEFF (byte order mark)', '\ufeff'],
      ['U+2028 (line separator)', '\u2028'],
      ['U+0085 (next line)', '\u0085'],
      ['a vertical tab', '\v'],
      ['a form feed', '\f'],
      ['spaces around U+3000', ' \u3000 '],
    ])(
      'Given a line of %s, which trim() drops, When it is replayed, Then it is parsed and invalid-json',
      (_what, input) => {
        const engine = new ReplayEngine(LADDERS);
        const rejected = { kind: 'rejected', reason: 'invalid-json', id: null };
        expect(engine.ingestLine(input)).toMatchObject(rejected);
        expect(engine.ingestLine(Buffer.from(input))).toMatchObject(rejected);
        expect(output(engine).rejected).toHaveLength(2);
      },
    );

    it('Given an event with a BOM or a U+3000 before it, When replayed, Then it is invalid-json', () => {
      const engine = new ReplayEngine(LADDERS);
      const event = line(annBeatsBob('bom'));
      for (const prefix of ['\ufeff', '\u3000', '\u00a0'])
        expect(engine.ingestLine(prefix + event)).toMatchObject({ reason: 'invalid-json' });
      // Spaces, tabs and carriage returns around it are JSON whitespace.
      expect(engine.ingestLine(` \t${event}\r \r`)).toMatchObject({ kind: 'accepted' });
    });

    it('Given two events on one line split by a bare carriage return, When replayed, Then the line is invalid-json', () => {
      const engine = new ReplayEngine(LADDERS);
      const two = `${line(annBeatsBob('cr1'))}\r${line(annBeatsBob('cr2'))}`;
      expect(engine.ingestLine(two)).toMatchObject({ kind: 'rejected', reason: 'invalid-json' });
    });

    it('Given a line that is not UTF-8, When replayed as bytes, Then it is invalid-json', () => {
      const engine = new ReplayEngine(LADDERS);
      const [head, tail] = line(annBeatsBob('latin1')).split('ann') as [string, string];
      const bytes = Buffer.concat([Buffer.from(head), Buffer.from([0xe9]), Buffer.from(tail)]);
      expect(engine.ingestLine(bytes)).toEqual({
        kind: 'rejected',
        id: null,
        reason: 'invalid-json',
        detail: 'the value is not UTF-8',
      });
    });

    it.each<[string, string, string | null]>([
      ['a number id', '{"id":7,"type":"game.finished","ladder":"qq-gomoku"}', null],
      ['a null id', '{"id":null,"type":"period.closed","ladder":"qq-gomoku"}', null],
      ['no id', '{"type":"period.closed","ladder":"qq-gomoku"}', null],
      ['an array', '[{"id":"a1"}]', null],
      ['a JSON string', '"a1"', null],
      [
        'an id of 129 characters (still a string)',
        JSON.stringify({ ...annBeatsBob('x'), id: 'k'.repeat(129) }),
        'k'.repeat(129),
      ],
      ['an empty id (still a string)', JSON.stringify({ ...annBeatsBob('x'), id: '' }), ''],
    ])(
      'Given %s, When it is rejected, Then the rejected entry has that id (null when not a string)',
      (_what, input, id) => {
        const engine = new ReplayEngine(LADDERS);
        engine.ingestLine(input);
        expect(output(engine).rejected).toEqual([{ id, reason: 'invalid-event' }]);
      },
    );

    it('Given rejected and void lines interleaved, When replayed, Then both lists are in file order', () => {
      const ip = (id: string, n: number) =>
        finished(
          IG,
          id,
          `2026-11-2${n}T10:00:00+08:00`,
          [win('a', { ip: '9' }), loss('b', { ip: '9' })],
          { id },
        );
      const short = (id: string) =>
        finished(XQ, id, '2026-11-29T10:00:00+08:00', [win('a', { first: true }), loss('b')], {
          id,
          moves: 1,
        });
      const out = output(
        replay([
          ip('v-z', 3),
          '{bad',
          { ...annBeatsBob('r-b'), players: [win('x'), win('y')] },
          short('v-a'),
          annBeatsBob('ok'),
          { ...annBeatsBob('r-a'), ladder: 'nowhere' },
          ip('v-m', 4),
          { id: 3 },
        ]),
      );
      expect(out.rejected).toEqual([
        { id: null, reason: 'invalid-json' },
        { id: 'r-b', reason: 'inconsistent-result' },
        { id: 'r-a', reason: 'unknown-ladder' },
        { id: null, reason: 'invalid-event' },
      ]);
      expect(out.void).toEqual([
        { id: 'v-z', reason: 'same-ip' },
        { id: 'v-a', reason: 'too-short' },
        { id: 'v-m', reason: 'same-ip' },
      ]);
    });
  });

  describe('--simulate', () => {
    // i.Game (Asia/Taipei): 2026-W48 runs Mon 2026-11-23 06:00 .. Mon 2026-11-30 06:00 (+08:00);
    // November closes at 2026-12-01 06:00.
    // w48: ann beats cat at 1600/1600: E = 0.5, K = 32 -> ann 1616, cat 1584. One rated game in W48 (< 7).
    const w48 = finished(IG, 'w48', '2026-11-23T10:00:00+08:00', [
      win('ann', { ip: '1' }),
      loss('cat', { ip: '3' }),
    ]);
    const later = (at: string, id = nextId()) =>
      finished(IG, `late-${id}`, at, [draw('eve', { ip: '5' }), draw('fay', { ip: '6' })], { id });

    it('Given only earlier events of a ladder, When other ladders move on, Then its periods stay open (each ladder has its own clock)', () => {
      // Given ann's game in W48; When a qq-gomoku game comes weeks later and the file ends (no --until)
      const out = output(
        replay([w48, { ...annBeatsBob('qq'), finishedAt: '2026-12-20T10:00:00+08:00' }], true),
      );
      // Then no weekly -30 on igame-gomoku: ann 1616, cat 1584
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1616 });
      expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1584 });
    });

    it('Given a game in W48, When an accepted event of the ladder comes after the close, Then the week closes first (-30 each)', () => {
      // When eve and fay draw on 2026-12-01 10:00 (after W48's and November's closes)
      const out = output(replay([w48, later('2026-12-01T10:00:00+08:00')], true));
      // Then ann 1616 - 30 = 1586, cat 1584 - 30 = 1554; November: both played in it, no -200.
      // eve and fay had no rated game before the close: not penalized; their draw at 1600/1600 moves nothing.
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
      expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1554 });
      expect(standing(out, IG, 'eve')).toMatchObject({ rating: 1600, games: 1 });
    });

    it('Given instants with lower-case t and z, When replayed, Then every close and penalty lands as with upper-case ones', () => {
      // The same log twice: W48's game, a -100 penalty, a correction, then a game after the
      // W48 and November closes; only the case of T and Z differs.
      const log = [
        w48,
        {
          id: 'pen',
          type: 'player.penalized',
          ladder: IG,
          player: 'cat',
          points: -100,
          reason: 'disconnects',
          at: '2026-11-24T10:00:00Z',
        },
        { ...later('2026-11-29T21:59:59.5Z', 'edge'), gameId: 'edge' },
        {
          id: 'corr',
          type: 'game.corrected',
          ladder: IG,
          gameId: 'edge',
          correctedAt: '2026-11-29T22:00:00Z',
          void: true,
        },
        later('2026-12-01T10:00:00+08:00'),
      ];
      const lower = log.map(
        (e): Json =>
          JSON.parse(
            JSON.stringify(e)
              .replace(/(\d)T(\d)/g, '$1t$2')
              .replace(/(\d)Z"/g, '$1z"'),
          ) as Json,
      );
      expect(JSON.stringify(lower)).toContain('2026-11-24t10:00:00z');
      const upperText = text(replay(log, true, '2027-01-01T06:00:00+08:00'));
      expect(text(replay(lower, true, '2027-01-01T06:00:00+08:00'))).toBe(upperText);
      // Every line was accepted and the closes acted (ann's 1616 took weekly and monthly cuts).
      const out = JSON.parse(upperText) as Output;
      expect(out.rejected).toEqual([]);
      expect(standing(out, IG, 'ann')?.rating).toBeLessThan(1616);
    });

    it('Given a game in W48, When a void game of the ladder comes after the close, Then it moves the clock too (void games are accepted)', () => {
      const voidGame = finished(IG, 'v', '2026-12-01T10:00:00+08:00', [
        win('eve', { ip: '7' }),
        loss('fay', { ip: '7' }),
      ]);
      const out = output(replay([w48, voidGame], true));
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
    });

    it.each<[string, Json]>([
      [
        'rejected (two winners)',
        finished(IG, 'r', '2026-12-01T10:00:00+08:00', [
          win('eve', { ip: '5' }),
          win('fay', { ip: '6' }),
        ]),
      ],
      [
        'rejected (missing result)',
        finished(IG, 'r', '2026-12-01T10:00:00+08:00', [win('eve', { ip: '5' }), bare('fay')]),
      ],
      [
        'rejected (unknown game)',
        {
          id: 'cx',
          type: 'game.corrected',
          ladder: IG,
          gameId: 'never',
          correctedAt: '2026-12-01T10:00:00+08:00',
          void: true,
        },
      ],
      ['a repeated id', { ...w48, finishedAt: '2026-12-01T10:00:00+08:00' }],
    ])(
      'Given a game in W48, When an event of the ladder after the close is %s, Then no period closes',
      (_what, event) => {
        // Given ann 1616, cat 1584; When the event is not accepted and the file ends
        const out = output(replay([w48, event], true));
        // Then W48 stays open: no -30
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1616 });
        expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1584 });
      },
    );

    it('Given a rejected event first, When accepted events follow, Then the clock starts at the first accepted event', () => {
      // Given a rejected event dated 2026-12-20 first, then ann's game in W48
      const rejected = finished(IG, 'r', '2026-12-20T10:00:00+08:00', [
        win('eve', { ip: '5' }),
        win('fay', { ip: '6' }),
      ]);
      // When the file ends with --until 2026-11-30T07:00+08:00
      const out = output(replay([rejected, w48], true, '2026-11-30T07:00:00+08:00'));
      // Then the clock started in W48, so W48 closed: ann 1586, cat 1554
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
      expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1554 });
    });

    it('Given a game in W48, When the next game is exactly at the close instant, Then the close happens before it', () => {
      // Given ann 1616 (one game in W48), cat 1584
      // When ann plays bob (new, 1600) at 2026-11-30T06:00+08:00
      const atClose = finished(IG, 'at', '2026-11-30T06:00:00+08:00', [
        win('ann', { ip: '1' }),
        loss('bob', { ip: '2' }),
      ]);
      const out = output(replay([w48, atClose], true));
      // Then first W48 closes: ann 1586, cat 1554 (bob had no rated game before the close);
      // then ann 1586 beats bob 1600: E_ann = 1/(10^(14/400) + 1) = 1/(1.083927 + 1) = 0.479863,
      // ann 1586 + 32 * 0.520137 = 1602.64 -> 1603, bob 1600 - 16.64 = 1583.36 -> 1583.
      // (Closing after the game would give ann 1631 - 30 = 1601, bob 1585.)
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1603, games: 2 });
      expect(standing(out, IG, 'bob')).toMatchObject({ rating: 1583, games: 1 });
      expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1554 });
    });

    describe('the order at one instant and the position of simulated events', () => {
      // Every event a ladder folds, simulated closes and penalties included, in order.
      let spy: jest.SpiedFunction<LadderFold['evolve']>;
      beforeEach(() => {
        spy = jest.spyOn(LadderFold.prototype, 'evolve');
      });
      afterEach(() => spy.mockRestore());
      const folded = (): LadderEvent[] => spy.mock.calls.map(([event]) => event);
      const describeEvent = (e: LadderEvent): string =>
        e.type === 'period.closed'
          ? `${e.period} ${e.key}`
          : e.type === 'game.finished'
            ? `game ${e.gameId}`
            : e.type === 'player.penalized'
              ? `penalty ${e.player} ${e.points}`
              : e.type === 'player.annulled'
                ? `annulment ${e.player}`
                : `correction ${e.gameId}`;

      it('Given a Sunday game, When the next game is at 06:00 on Monday 1 June, Then weekly, monthly and daily close in that order, before the game', () => {
        // 2026-06-01 is a Monday: W22 (25..31 May), May and the day 2026-05-31 all close at 2026-06-01T06:00+08:00
        replay(
          [
            finished(IG, 'sun', '2026-05-31T10:00:00+08:00', [
              win('ann', { ip: '1' }),
              loss('bob', { ip: '2' }),
            ]),
            finished(IG, 'mon', '2026-06-01T06:00:00+08:00', [
              win('ann', { ip: '1' }),
              loss('bob', { ip: '2' }),
            ]),
          ],
          true,
        );
        expect(folded().map(describeEvent)).toEqual([
          'game sun',
          'weekly 2026-W22',
          'monthly 2026-05',
          'daily 2026-05-31',
          'game mon',
        ]);
      });

      it('Given five disconnects, When the fifth game is folded, Then the -100 comes right after it, before the next game', () => {
        const games = [1, 2, 3, 4, 5, 6].map((n) =>
          finished(IG, `d${n}`, `2026-11-23T1${n}:00:00+08:00`, [
            draw('ann', { ip: '1' }),
            draw('bob', { ip: '2', disconnected: n <= 5 }),
          ]),
        );
        replay(games, true);
        expect(folded().map(describeEvent)).toEqual([
          'game d1',
          'game d2',
          'game d3',
          'game d4',
          'game d5',
          'penalty bob -100',
          'game d6',
        ]);
      });

      it('Given --until, When the file ends, Then the closes up to it are folded in time order', () => {
        replay([w48], true, '2026-12-08T06:00:00+08:00');
        const closes = folded()
          .filter((e) => e.type === 'period.closed' && e.period !== 'daily')
          .map(describeEvent);
        // W48 closes 11-30, November 12-01, W49 12-07; W50 (12-14) is after --until
        expect(closes).toEqual(['weekly 2026-W48', 'monthly 2026-11', 'weekly 2026-W49']);
      });
    });

    it('Given five disconnects, When the sixth game follows, Then it is rated from the penalized rating', () => {
      // Given five draws at 1600/1600 (no change), bob disconnected each: -100 right after d5 -> bob 1500
      const games = [1, 2, 3, 4, 5].map((n) =>
        finished(IG, `d${n}`, `2026-11-23T1${n}:00:00+08:00`, [
          draw('ann', { ip: '1' }),
          draw('bob', { ip: '2', disconnected: true }),
        ]),
      );
      // When ann beats bob in d6
      const d6 = finished(IG, 'd6', '2026-11-23T17:00:00+08:00', [
        win('ann', { ip: '1' }),
        loss('bob', { ip: '2' }),
      ]);
      const out = output(replay([...games, d6], true));
      // Then E_ann = 1/(10^(-100/400) + 1) = 1/(0.562341 + 1) = 0.640065: ann 1600 + 32 * 0.359935 = 1611.52 -> 1612,
      // bob 1500 - 11.52 = 1488.48 -> 1488. The counter wrapped to 0.
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1612, games: 6 });
      expect(standing(out, IG, 'bob')).toEqual({
        rating: 1488,
        games: 6,
        wins: 0,
        losses: 1,
        draws: 5,
        ranked: false,
        disconnects: 0,
      });
      // Without --simulate the fold keeps the counter but nobody sends the -100:
      // ann 1616, bob 1584 (1600/1600 game)
      const plain = output(replay([...games, d6], false));
      expect(standing(plain, IG, 'bob')).toMatchObject({ rating: 1584, disconnects: 0 });
    });

    describe('finish(until)', () => {
      it('Given a game in W48, When the file ends with --until one second before the close, Then W48 stays open', () => {
        const out = output(replay([w48], true, '2026-11-30T05:59:59+08:00'));
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1616 });
      });

      it('Given a game in W48, When --until is the close instant, Then W48 closes (closes at or before the time)', () => {
        const out = output(replay([w48], true, '2026-11-30T06:00:00+08:00'));
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
      });

      it('Given a game in November, When --until is 2027-01-01 06:00, Then every week and month up to it closes', () => {
        const out = output(replay([w48], true, '2027-01-01T06:00:00+08:00'));
        // W48 (11-30), W49 (12-07), W50 (12-14), W51 (12-21), W52 (12-28): -30 each = -150.
        // November (12-01): played in it, nothing. December (2027-01-01 06:00): no game in it: -200.
        // W53 closes 2027-01-04: still open. ann 1616 - 150 - 200 = 1266; cat 1584 - 350 = 1234.
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1266 });
        expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1234 });
      });

      it('Given a game in W48, When the file ends without --until, Then the periods after the last event stay open', () => {
        const engine = replay([w48], true);
        engine.finish(null);
        expect(standing(output(engine), IG, 'ann')).toMatchObject({ rating: 1616 });
      });

      it('Given no --simulate, When --until is given, Then nothing closes', () => {
        const out = output(replay([w48], false, '2027-01-01T06:00:00+08:00'));
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1616 });
      });
    });

    describe('period.closed in the input', () => {
      it('Given a close whose start/end name another week, When it is replayed, Then the window and instant come from its key', () => {
        // Given ann's game in W48; a close of key 2026-W48 whose start/end claim W50
        const input = close(IG, 'weekly', '2026-W48', {
          id: 'maint-1',
          start: '2026-12-07T06:00:00+08:00',
          end: '2026-12-14T06:00:00+08:00',
        });
        const out = output(replay([w48, input], true));
        // Then only W48 closes (at 11-30 06:00): ann 1586, cat 1554. (Taking the instant from `end`
        // would also close W49 and November.. W50: 1616 - 90 = 1526.)
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
        expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1554 });
      });

      it('Given a week closed by the input, When it is closed again (by the clock and by another id), Then it closes once', () => {
        const out = output(
          replay(
            [
              w48,
              close(IG, 'weekly', '2026-W48'),
              close(IG, 'weekly', '2026-W48', { id: 'maint-again' }),
              later('2026-12-02T10:00:00+08:00'),
            ],
            true,
          ),
        );
        // W48 once (-30); November: both played in it.
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
        expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1554 });
      });

      it('Given a week closed by the input without --simulate, When it is closed again by another id, Then it closes once', () => {
        const out = output(
          replay([
            w48,
            close(IG, 'weekly', '2026-W48'),
            close(IG, 'weekly', '2026-W48', { id: 'again' }),
          ]),
        );
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1586 });
      });

      it('Given a game in W48, When the input closes W50, Then the clock closes W48 and W49 before it', () => {
        // The close of W50 happens at 2026-12-14 06:00: W48 (-30), November (no penalty), W49 (-30), W50 (-30)
        const out = output(replay([w48, close(IG, 'weekly', '2026-W50')], true));
        expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1616 - 90 });
        expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1584 - 90 });
      });
    });
  });

  describe('output (CONTRACT.md)', () => {
    it('Given one game in every built-in ladder, When rendered, Then the JSON has exactly the contract fields per rule set', () => {
      // Given
      const log = [
        // ann beats bob 0/0: +10 / -10; titles 1级 and -10 -> 1 + ceil(10/100) = 2级
        finished(QQ, 'q', '2026-11-29T10:00:00+08:00', [win('ann'), loss('bob')]),
        // 1600/1600: +16 / -16; bob disconnected
        finished(IG, 'i', '2026-11-29T10:00:00+08:00', [
          win('ann', { ip: '1' }),
          loss('bob', { ip: '2', disconnected: true }),
        ]),
        finished('igame-gomoku-casual', 'c', '2026-11-29T10:00:00+08:00', [
          win('ann'),
          loss('bob'),
        ]),
        // ann (first) beats bob at 1300/1300: 1322 (六级) / 1278 (七级)
        finished(XQ, 'x', '2026-11-29T10:00:00+08:00', [win('ann', { first: true }), loss('bob')]),
        // capture game: 4 and 2 valid captures, score 0, level 25 until the daily close
        finished(
          XB,
          'b',
          '2026-11-29T10:00:00+08:00',
          [win('ann', { captures: 4 }), loss('bob', { captures: 2 })],
          {
            context: { kind: 'capture', captureTarget: 3 },
          },
        ),
        // ann wins with 3 left: +20; bob 8 left: -ceil(8/2) = -4
        finished(SQ, 's', '2026-11-29T10:00:00+08:00', [
          win('ann', { remaining: 3 }),
          loss('bob', { remaining: 8 }),
        ]),
        // ann 30 + 20 = 50, bob 20, cat 10 - 20 - 15 = -25; places 1, 2, 3
        finished(FK, 'f', '2026-11-29T10:00:00+08:00', [
          { id: 'ann', seat: 0, tablePoints: 30, finishOrder: 1, handPoints: 0 },
          { id: 'bob', seat: 1, tablePoints: 20, finishOrder: 2, handPoints: 0 },
          { id: 'cat', seat: 2, tablePoints: 10, finishOrder: null, handPoints: 15 },
        ]),
      ];
      // When
      const out = output(replay(log));
      // Then
      const rec = (w: number, l: number, d: number) => ({
        games: w + l + d,
        wins: w,
        losses: l,
        draws: d,
      });
      expect(out).toEqual({
        ladders: {
          'qq-gomoku': {
            players: {
              ann: { rating: 10, ...rec(1, 0, 0), ranked: true, title: '1级' },
              bob: { rating: -10, ...rec(0, 1, 0), ranked: true, title: '2级' },
            },
          },
          'igame-gomoku': {
            players: {
              ann: { rating: 1616, ...rec(1, 0, 0), ranked: false, disconnects: 0 },
              bob: { rating: 1584, ...rec(0, 1, 0), ranked: false, disconnects: 1 },
            },
          },
          'igame-gomoku-casual': {
            players: {
              ann: { ...rec(1, 0, 0), ranked: false },
              bob: { ...rec(0, 1, 0), ranked: false },
            },
          },
          'qq-xiangqi': {
            players: {
              ann: { rating: 1322, ...rec(1, 0, 0), ranked: true, title: '六级' },
              bob: { rating: 1278, ...rec(0, 1, 0), ranked: true, title: '七级' },
            },
          },
          'xinbo-go': {
            players: {
              ann: { rating: 0, ...rec(1, 0, 0), ranked: true, level: 25, captures: 4 },
              bob: { rating: 0, ...rec(0, 1, 0), ranked: true, level: 25, captures: 2 },
            },
          },
          'qq-blokus': {
            players: {
              ann: { rating: 20, ...rec(1, 0, 0), ranked: true },
              bob: { rating: -4, ...rec(0, 1, 0), ranked: true },
            },
          },
          'qq-fifty-k': {
            players: {
              ann: { rating: 50, ...rec(1, 0, 0), ranked: true },
              bob: { rating: 20, ...rec(0, 0, 1), ranked: true },
              cat: { rating: -25, ...rec(0, 1, 0), ranked: true },
            },
          },
        },
        rejected: [],
        void: [],
      });
    });

    it('Given the output, When rendered twice, Then the text is the same and ends with the void list', () => {
      const engine = replay([annBeatsBob('a'), '{bad']);
      const first = text(engine);
      expect(text(engine)).toBe(first);
      expect(Object.keys(JSON.parse(first) as object)).toEqual(['ladders', 'rejected', 'void']);
    });

    it('Given i.Game draws, When a player has 20 rated games, Then ranked turns true (19: false)', () => {
      // Draws at 1600/1600 move nothing (E = S = 0.5)
      const games = (a: string, b: string, n: number) =>
        Array.from({ length: n }, (_, i) =>
          finished(IG, `${a}${i}`, `2026-11-2${3 + (i % 5)}T1${i % 10}:00:00+08:00`, [
            draw(a, { ip: '1' }),
            draw(b, { ip: '2' }),
          ]),
        );
      const out = output(replay([...games('ann', 'bob', 20), ...games('cat', 'dan', 19)]));
      expect(standing(out, IG, 'ann')).toMatchObject({
        rating: 1600,
        games: 20,
        draws: 20,
        ranked: true,
      });
      expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1600, games: 19, ranked: false });
    });

    it('Given players of a void game only, When rendered, Then they are left out or shown in the default state', () => {
      const out = output(
        replay([
          finished(IG, 'v', '2026-11-29T10:00:00+08:00', [
            win('ann', { ip: '1' }),
            loss('bob', { ip: '1' }),
          ]),
        ]),
      );
      for (const id of ['ann', 'bob']) {
        const s = standing(out, IG, id);
        if (s !== undefined) {
          expect(s).toEqual({
            rating: 1600,
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            ranked: false,
            disconnects: 0,
          });
        }
      }
      expect(out.void).toEqual([{ id: expect.any(String), reason: 'same-ip' }]);
    });
  });
});
