import { parseEvent, validateEvent } from './event-validator.js';
import { isValidPeriodKey } from './period-key.js';

// The examples of CONTRACT.md, completed where the contract abbreviates them.
const gameFinished = {
  id: '6f1c0001',
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId: 'g-20261129-000123',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  reason: 'five',
  context: {
    kind: 'territory',
    boardSize: 19,
    handicap: 0,
    teacher: false,
    tournament: false,
    captureTarget: 3,
  },
  players: [
    {
      id: 'alice',
      result: 'win',
      side: 'black',
      first: true,
      ip: '203.0.113.7',
      disconnected: false,
    },
    {
      id: 'bob',
      result: 'loss',
      side: 'white',
      first: false,
      ip: '198.51.100.2',
      disconnected: true,
    },
  ],
};
const gameCorrected = {
  id: 'c-1',
  type: 'game.corrected',
  ladder: 'igame-gomoku',
  gameId: 'g-20261129-000123',
  correctedAt: '2026-11-30T09:00:00+08:00',
  void: false,
  players: [
    { id: 'alice', result: 'loss' },
    { id: 'bob', result: 'win' },
  ],
  note: 'complaint #12: bob was disconnected by the server',
};
const periodClosed = {
  id: 'period.closed:igame-gomoku:weekly:2026-W48',
  type: 'period.closed',
  ladder: 'igame-gomoku',
  period: 'weekly',
  key: '2026-W48',
  start: '2026-11-23T06:00:00+08:00',
  end: '2026-11-30T06:00:00+08:00',
};
const penalized = {
  id: 'p-1',
  type: 'player.penalized',
  ladder: 'igame-gomoku',
  player: 'bob',
  points: -100,
  reason: 'disconnects',
  at: '2026-11-29T13:05:00+08:00',
};

describe('event validator', () => {
  it.each([
    ['game.finished', gameFinished],
    ['game.corrected', gameCorrected],
    ['game.corrected (void)', { ...gameCorrected, void: true, players: undefined }],
    ['period.closed', periodClosed],
    ['player.penalized', penalized],
  ])('accepts the contract example of %s', (_name, example) => {
    const outcome = parseEvent(JSON.stringify(example));
    expect(outcome).toEqual({ ok: true, event: JSON.parse(JSON.stringify(example)) });
  });

  it.each(['{', 'not json', '{"id": NaN}', '{"moves": Infinity}', ''])(
    'rejects %p as invalid-json with no id',
    (line) => {
      const outcome = parseEvent(line);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.rejection.code).toBe('invalid-json');
        expect(outcome.id).toBeNull();
      }
    },
  );

  it.each([
    ['a missing field', { ...gameFinished, finishedAt: undefined }, 'finishedAt is required'],
    ['a wrong type', { ...gameFinished, moves: '41' }, '/moves'],
    ['an unknown type', { ...gameFinished, type: 'game.started' }, '/type'],
    ['a bad ladder id', { ...gameFinished, ladder: 'Bad Ladder' }, '/ladder'],
    [
      'a date without offset',
      { ...gameFinished, finishedAt: '2026-11-29T13:05:00' },
      '/finishedAt',
    ],
    ['one player', { ...gameFinished, players: [gameFinished.players[0]] }, '/players'],
    [
      'a bad player result',
      { ...gameFinished, players: [{ id: 'a', result: 'won' }, { id: 'b' }] },
      '/players/0/result',
    ],
    ['a positive penalty', { ...penalized, points: 10 }, '/points'],
    [
      'a correction with neither void nor players',
      { ...gameCorrected, players: undefined, void: false },
      'players',
    ],
    ['a period key of the wrong shape', { ...periodClosed, key: '2026-11' }, '/key'],
    ['a period key that is no real week', { ...periodClosed, key: '2025-W53' }, '/key'],
    ['a day that does not exist', { ...periodClosed, period: 'daily', key: '2026-02-30' }, '/key'],
    [
      'a leap second (valid RFC 3339, but no instant)',
      { ...gameFinished, finishedAt: '2026-12-31T23:59:60Z' },
      '/finishedAt',
    ],
    ['an array', [gameFinished], 'event'],
    ['a string', 'hello', 'event'],
  ])('rejects %s as invalid-event, naming the field', (_name, value, field) => {
    const outcome = validateEvent(JSON.parse(JSON.stringify(value)));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.rejection.code).toBe('invalid-event');
      expect(outcome.rejection.detail).toContain(field);
    }
  });

  it('accepts player.annulled, and refuses one whose instants fail the schema', () => {
    const annulled = {
      id: 'a-1',
      type: 'player.annulled',
      ladder: 'igame-gomoku',
      player: 'mallory',
      since: '2026-11-01T00:00:00+08:00',
      annulledAt: '2026-12-01T10:00:00+08:00',
      note: 'fair-play review #3',
    };
    expect(parseEvent(JSON.stringify(annulled))).toEqual({ ok: true, event: annulled });
    // One that fails the schema is told why it fails the schema.
    const outcome = validateEvent({ ...annulled, since: '2026-11-01' });
    expect(outcome).toMatchObject({ ok: false, id: 'a-1', rejection: { code: 'invalid-event' } });
    if (!outcome.ok) expect(outcome.rejection.detail).toContain('/since');
  });

  it('keeps the id of a schema-invalid event when it is a string', () => {
    const outcome = validateEvent({ ...gameFinished, moves: -1 });
    expect(outcome).toMatchObject({ ok: false, id: '6f1c0001' });
    const numeric = validateEvent({ ...gameFinished, id: 7 });
    expect(numeric).toMatchObject({ ok: false, id: null });
  });
});

describe('period keys', () => {
  it.each([
    ['weekly', '2026-W53', true],
    ['weekly', '2027-W53', false],
    ['weekly', '2026-W00', false],
    ['monthly', '2026-12', true],
    ['monthly', '2026-13', false],
    ['daily', '2028-02-29', true],
    ['daily', '2027-02-29', false],
    ['daily', '2026-W05', false],
  ] as const)('%s %s is real: %s', (period, key, real) => {
    expect(isValidPeriodKey(period, key)).toBe(real);
  });
});
