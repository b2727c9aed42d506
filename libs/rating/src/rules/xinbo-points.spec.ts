import {
  type GameContext,
  type LadderEvent,
  type PlayerReport,
  parseEvent,
} from '@ranking/contracts';
import {
  bracketOf,
  LadderFold,
  type LadderOutcome,
  ladderRegistry,
  levelFromScore,
  newPlayer,
  PeriodCalendar,
  type PlayerSnapshot,
  type PlayerState,
  ReplayEngine,
  settingOf,
} from '@ranking/rating';
import {
  POINTS_PER_LEVEL,
  TERRITORY_LEVEL,
  TERRITORY_START_SCORE,
  WEAKEST_LEVEL,
  xinboPoints,
} from './xinbo-points.js';
import { XINBO_POINTS_PARAMS } from './xinbo-points-params.js';
import { win, loss, draw } from '../reports.fixture.js';

// RULES.md "xinbo-points" (seed 004_*). Every expected number below is worked out by hand
// from RULES.md; the arithmetic is in the comment next to it.

const LADDERS = ladderRegistry();
const XINBO = LADDERS.get('xinbo-go')!;

// ---------------------------------------------------------------- fixtures

let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;

/** Next calendar date of a `YYYY-MM-DD` key. */
function nextDay(key: string): string {
  const d = new Date(`${key}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

interface GameOptions {
  at?: string;
  moves?: number;
  context?: GameContext;
  gameId?: string;
}

/** A raw game.finished line body (id and ladder included). */
function gameLine(players: PlayerReport[], o: GameOptions = {}): Record<string, unknown> {
  return {
    id: nextId('ev'),
    type: 'game.finished',
    ladder: 'xinbo-go',
    gameId: o.gameId ?? nextId('g'),
    finishedAt: o.at ?? '2026-03-02T10:00:00+08:00',
    moves: o.moves ?? 120,
    ...(o.context === undefined ? {} : { context: o.context }),
    players,
  };
}

const captureLine = (
  target: 3 | 5,
  players: PlayerReport[],
  o: GameOptions = {},
): Record<string, unknown> =>
  gameLine(players, {
    moves: 40,
    ...o,
    context: { kind: 'capture', captureTarget: target, ...o.context },
  });

/** A daily close; its instant comes from the key: the next day at 06:00 local. */
const closeLine = (key: string): Record<string, unknown> => ({
  id: `period.closed:xinbo-go:daily:${key}`,
  type: 'period.closed',
  ladder: 'xinbo-go',
  period: 'daily',
  key,
  start: `${key}T06:00:00+08:00`,
  end: `${nextDay(key)}T06:00:00+08:00`,
});

const penaltyLine = (player: string, points: number): Record<string, unknown> => ({
  id: nextId('pen'),
  type: 'player.penalized',
  ladder: 'xinbo-go',
  player,
  points,
  reason: 'disconnects',
  at: '2026-03-02T12:00:00+08:00',
});

/** Parses a line through the public validator; a fixture that fails the schema is a test bug. */
function parsed(line: Record<string, unknown>): LadderEvent {
  const outcome = parseEvent(JSON.stringify(line));
  if (!outcome.ok) throw new Error(`fixture is not a valid event: ${outcome.rejection.detail}`);
  return outcome.event;
}

const game = (players: PlayerReport[], o: GameOptions = {}): LadderEvent =>
  parsed(gameLine(players, o));
const captureGame = (target: 3 | 5, players: PlayerReport[], o: GameOptions = {}): LadderEvent =>
  parsed(captureLine(target, players, o));
const dailyClose = (key: string): LadderEvent => parsed(closeLine(key));

/** A territory-stage player with an official level and a live score, as the fold keeps them. */
const territoryPlayer = (id: string, level: number, score: number): PlayerState => ({
  ...newPlayer(id, XINBO),
  level,
  territory: true,
  rating: score,
});

/** A capture-stage player at an official level, with cumulative valid captures. */
const capturePlayer = (id: string, level: number, captures: number): PlayerState => ({
  ...newPlayer(id, XINBO),
  level,
  captures,
  rating: (WEAKEST_LEVEL - level) * POINTS_PER_LEVEL,
});

function foldWith(...players: PlayerState[]): LadderFold {
  return LadderFold.restore(XINBO, {
    ladder: XINBO.id,
    players,
    games: [],
    closed: [],
    accepted: 0,
  });
}

const expectRejected = (outcome: LadderOutcome, code: string): void => {
  expect(outcome.status).toBe('rejected');
  if (outcome.status === 'rejected') expect(outcome.rejection.code).toBe(code);
};

interface Standing {
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  ranked: boolean;
  level: number;
  captures: number;
}
interface ReplayOutput {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string | null; reason: string }[];
}

/** Runs JSON lines through the replay engine and parses its render() output back. */
function replay(
  lines: Record<string, unknown>[],
  opts: { simulate?: boolean; until?: string } = {},
): ReplayOutput {
  const engine = new ReplayEngine(LADDERS, { simulate: opts.simulate ?? false });
  for (const line of lines) engine.ingestLine(JSON.stringify(line));
  engine.finish(opts.until === undefined ? null : Date.parse(opts.until));
  return JSON.parse([...engine.render()].join('')) as ReplayOutput;
}

// ---------------------------------------------------------------- module exports

describe('xinbo-points module exports', () => {
  it('has the constants of RULES.md', () => {
    // 200 points a level, 25级 weakest, stage ends at 14级 with (25 − 14)·200 = 2200.
    expect(POINTS_PER_LEVEL).toBe(200);
    expect(WEAKEST_LEVEL).toBe(25);
    expect(TERRITORY_LEVEL).toBe(14);
    expect(TERRITORY_START_SCORE).toBe(2200);
    expect(XINBO_POINTS_PARAMS.defaults).toMatchObject({
      dailyCaptureCap: 10,
      capturesPerLevel: 10,
      minMoves: 10,
      gapLimit: 300,
    });
  });

  it.each([
    [0, 25], // 25 − floor(0/200)
    [199, 25], // 25 − 0
    [200, 24], // 25 − 1
    [399, 24],
    [2200, 14], // 25 − 11
    [2399, 14],
    [2400, 13], // 25 − 12
    [3200, 9], // 25 − 16
    [4799, 2], // 25 − 23
    [4800, 1], // 25 − 24
    [9999, 1], // max(1, 25 − 49)
  ])('Given a score of %i, When the level is derived, Then it is %i级', (score, level) => {
    expect(levelFromScore(score)).toBe(level);
  });

  it.each([
    [14, 12, 0],
    [12, 12, 0],
    [10, 12, 0],
    [9, 20, -10],
    [5, 20, -10],
    [4, 15, -10],
    [2, 15, -10],
    [1, 12, -12],
  ])(
    'Given official level %i, When the bracket is looked up, Then a win is %i and a loss %i',
    (level, w, l) => {
      expect(bracketOf(level)).toMatchObject({ win: w, loss: l });
    },
  );

  it('declares two players, the daily close, a penalty floor of 0 and the daily capture tally', () => {
    expect(xinboPoints.name).toBe('xinbo-points');
    expect(xinboPoints.playerCounts).toEqual([2]);
    expect(xinboPoints.closes).toEqual(['daily']);
    expect(xinboPoints.penalties?.floor(XINBO)).toBe(0);
    expect(xinboPoints.keepsRating).toBe(true);
    expect(xinboPoints.tracksDailyCaptures).toBe(true);
    expect(xinboPoints.disconnects(XINBO)).toBeNull();
  });

  it('outputs the official level and the cumulative valid captures', () => {
    const p = { ...capturePlayer('a', 23, 27), rating: 400 };
    expect(xinboPoints.outputFields(p)).toEqual({ level: 23, captures: 27 });
  });

  describe('requiredFields', () => {
    const capture = settingOf({ kind: 'capture', captureTarget: 3 });
    it('Given a capture game without captureTarget, Then it names the field', () => {
      const detail = xinboPoints.requiredFields(
        [win('a', { captures: 1 }), loss('b', { captures: 0 })],
        settingOf({ kind: 'capture' }),
      );
      expect(detail).toContain('captureTarget');
    });
    it('Given a capture game where one player has no captures, Then it names that player', () => {
      expect(xinboPoints.requiredFields([win('a', { captures: 1 }), loss('b')], capture)).toContain(
        '/players/1/captures',
      );
    });
    it('Given a capture game with all fields, Then nothing is missing', () => {
      expect(
        xinboPoints.requiredFields(
          [win('a', { captures: 1 }), loss('b', { captures: 0 })],
          capture,
        ),
      ).toBeNull();
    });
    it('Given a missing result, Then it names the result', () => {
      expect(xinboPoints.requiredFields([{ id: 'a' }, loss('b')], settingOf(undefined))).toContain(
        '/players/0/result',
      );
    });
    it.each([
      [1, 'black', 'black'],
      [2, 'white', 'white'],
      [1, 'black', undefined],
      [2, undefined, undefined],
      [1, 'red', 'white'],
    ] as const)('Given handicap %i with sides %s/%s, Then it is invalid', (handicap, s1, s2) => {
      const players = [win('a', s1 ? { side: s1 } : {}), loss('b', s2 ? { side: s2 } : {})];
      expect(xinboPoints.requiredFields(players, settingOf({ handicap }))).not.toBeNull();
    });
    it.each([
      [0, undefined, undefined],
      [1, 'white', 'black'],
      [2, 'black', 'white'],
      [3, undefined, undefined],
    ] as const)(
      'Given handicap %i with sides %s/%s, Then nothing is missing',
      (handicap, s1, s2) => {
        const players = [win('a', s1 ? { side: s1 } : {}), loss('b', s2 ? { side: s2 } : {})];
        expect(xinboPoints.requiredFields(players, settingOf({ handicap }))).toBeNull();
      },
    );
  });

  describe('score', () => {
    const snap = (over: Partial<PlayerSnapshot> = {}): PlayerSnapshot => ({
      rating: 0,
      level: 25,
      territory: false,
      dayTally: 0,
      ...over,
    });

    it('Given a capture game and a day tally of 8, When scored, Then only 2 of the 5 captures are valid', () => {
      const score = xinboPoints.score({
        ladder: XINBO,
        moves: 30,
        setting: settingOf({ kind: 'capture', captureTarget: 5 }),
        players: [win('a', { captures: 5 }), loss('b', { captures: 1 })],
        before: [snap({ dayTally: 8 }), snap()],
      });
      expect(score.kind).toBe('scored');
      if (score.kind !== 'scored') return;
      // a: room 10 − 8 = 2, valid min(5, 2) = 2. b: room 10, valid 1.
      expect(score.effects[0]).toMatchObject({
        captures: 2,
        rating: 0,
        rated: 1,
        wins: 1,
        games: 1,
      });
      expect(score.effects[0]!.why).toEqual({
        kind: 'captures',
        reported: 5,
        credited: 5,
        valid: 2,
      });
      expect(score.effects[1]).toMatchObject({ captures: 1, rating: 0, rated: 1, losses: 1 });
    });

    it('Given a territory game between a 9级 and a 10级, When scored, Then each gets their own bracket', () => {
      const score = xinboPoints.score({
        ladder: XINBO,
        moves: 150,
        setting: settingOf(undefined),
        players: [win('a'), loss('b')],
        before: [
          snap({ territory: true, level: 9, rating: 3200 }),
          snap({ territory: true, level: 10, rating: 3000 }),
        ],
      });
      expect(score.kind).toBe('scored');
      if (score.kind !== 'scored') return;
      // 9级 win +20; 10级 loss 0 (14–10 bracket).
      expect(score.effects.map((e) => e.rating)).toEqual([20, 0]);
      expect(score.effects.map((e) => e.rated)).toEqual([1, 1]);
    });

    it('Given a tournament territory game, When scored, Then it is recorded only', () => {
      const score = xinboPoints.score({
        ladder: XINBO,
        moves: 3,
        setting: settingOf({ tournament: true }),
        players: [win('a'), loss('b')],
        before: [
          snap({ territory: true, level: 12, rating: 2600 }),
          snap({ territory: true, level: 12, rating: 2600 }),
        ],
      });
      expect(score).toEqual({ kind: 'recorded' });
    });

    it('Given a 9-move territory game, When scored, Then it is void too-short', () => {
      const score = xinboPoints.score({
        ladder: XINBO,
        moves: 9,
        setting: settingOf(undefined),
        players: [win('a'), loss('b')],
        before: [
          snap({ territory: true, level: 12, rating: 2600 }),
          snap({ territory: true, level: 12, rating: 2600 }),
        ],
      });
      expect(score).toEqual({ kind: 'void', reason: 'too-short' });
    });

    it('Given results win/win, When scored, Then it is inconsistent-result', () => {
      const score = xinboPoints.score({
        ladder: XINBO,
        moves: 100,
        setting: settingOf(undefined),
        players: [win('a'), win('b')],
        before: [snap(), snap()],
      });
      expect(score).toMatchObject({ kind: 'rejected', rejection: { code: 'inconsistent-result' } });
    });
  });

  describe('closePeriod', () => {
    const calendar = new PeriodCalendar('Asia/Shanghai');
    const day = calendar.window('daily', '2026-03-02');

    it.each([
      [0, 25, 0], // 25 − floor(0/10) = 25, score 0
      [9, 25, 0], // floor(0.9) = 0
      [10, 24, 200], // 25 − 1 = 24, (25 − 24)·200
      [25, 23, 400], // 25 − 2 = 23, 2·200
      [109, 15, 2000], // 25 − 10 = 15, 10·200
      [110, 14, 2200], // 25 − 11 = 14 → territory, 2200
      [150, 14, 2200], // 25 − 15 = 10, but the stage ends at 14 with 2200
    ])(
      'Given a capture-stage player with %i valid captures, When the day closes, Then level %i and score %i',
      (captures, level, score) => {
        const player = { ...newPlayer('a', XINBO), captures };
        const closed = xinboPoints.closePeriod!(day, player, XINBO);
        const after = closed?.player ?? player;
        expect(after.level).toBe(level);
        expect(after.rating).toBe(score);
        expect(after.territory).toBe(level === 14);
        expect(after.captures).toBe(captures);
      },
    );

    it.each([
      [14, 2200, 14], // 25 − 11
      [14, 2399, 14],
      [14, 2400, 13], // 25 − 12
      [10, 3200, 9], // 25 − 16
      [9, 3199, 10], // 25 − 15
      [2, 4800, 1], // 25 − 24
      [1, 9000, 1], // max(1, …)
      [14, 2100, 14], // 25 − 10 = 15, but a territory player stays 14 or stronger
      [13, 0, 14],
    ])(
      'Given a territory player at %i级 with score %i, When the day closes, Then the level is %i',
      (from, score, to) => {
        const player = territoryPlayer('a', from, score);
        const after = xinboPoints.closePeriod!(day, player, XINBO)?.player ?? player;
        expect(after.level).toBe(to);
        expect(after.rating).toBe(score);
        expect(after.territory).toBe(true);
      },
    );
  });
});

// ---------------------------------------------------------------- capture stage

describe('xinbo-points capture stage', () => {
  it('Given two new players, When a capture-3 game ends 3 to 1, Then each is credited their own captures', () => {
    const fold = new LadderFold(XINBO);
    const outcome = fold.evolve(
      captureGame(3, [win('alice', { captures: 3 }), loss('bob', { captures: 1 })]),
    );
    expect(outcome.status).toBe('applied');
    expect(fold.player('alice')).toMatchObject({
      captures: 3,
      wins: 1,
      games: 1,
      ratedGames: 1,
      rating: 0,
      level: 25,
    });
    expect(fold.player('bob')).toMatchObject({
      captures: 1,
      losses: 1,
      games: 1,
      ratedGames: 1,
      rating: 0,
      level: 25,
    });
  });

  it.each([
    [3, 49, 0], // below 50 moves: nothing
    [3, 50, 3], // capture-3 drawn at >= 50: target 3 each
    [3, 51, 3],
    [5, 79, 0], // below 80 moves: nothing
    [5, 80, 5], // capture-5 drawn at >= 80: target 5 each
  ] as const)(
    'Given a drawn capture-%i game at %i moves, When it is folded, Then each player is credited %i',
    (target, moves, credited) => {
      const fold = new LadderFold(XINBO);
      // The reported captures (2 and 1) are replaced by the draw's credit.
      fold.evolve(
        captureGame(target, [draw('alice', { captures: 2 }), draw('bob', { captures: 1 })], {
          moves,
        }),
      );
      expect(fold.player('alice')).toMatchObject({
        captures: credited,
        draws: 1,
        games: 1,
        ratedGames: 1,
      });
      expect(fold.player('bob')).toMatchObject({
        captures: credited,
        draws: 1,
        games: 1,
        ratedGames: 1,
      });
    },
  );

  it('Given several games in one local day, When captures exceed 10, Then the excess is dropped per player', () => {
    const fold = new LadderFold(XINBO);
    const day = '2026-03-02';
    fold.evolve(
      captureGame(5, [win('alice', { captures: 7 }), loss('bob', { captures: 4 })], {
        at: `${day}T07:00:00+08:00`,
      }),
    );
    fold.evolve(
      captureGame(5, [win('alice', { captures: 6 }), loss('bob', { captures: 4 })], {
        at: `${day}T12:00:00+08:00`,
      }),
    );
    // alice 7 + min(6, 10 − 7 = 3) = 10; bob 4 + 4 = 8.
    expect(fold.player('alice').captures).toBe(10);
    expect(fold.player('bob').captures).toBe(8);
    // 05:59 the next calendar morning is still the same local day: alice has no room, bob 2.
    fold.evolve(
      captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 5 })], {
        at: '2026-03-03T05:59:00+08:00',
      }),
    );
    expect(fold.player('alice').captures).toBe(10); // 10 + min(5, 0)
    expect(fold.player('bob').captures).toBe(10); // 8 + min(5, 2)
    // 06:00 starts a new day: room again.
    fold.evolve(
      captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 2 })], {
        at: '2026-03-03T06:00:00+08:00',
      }),
    );
    expect(fold.player('alice').captures).toBe(15); // 10 + 5
    expect(fold.player('bob').captures).toBe(12); // 10 + 2
    // Dropped captures still leave the games on the record.
    expect(fold.player('alice')).toMatchObject({ games: 4, wins: 4, ratedGames: 4 });
  });

  it('Given a day already closed, When a late game of that day arrives, Then the cap of its finishedAt day still applies', () => {
    const fold = new LadderFold(XINBO);
    fold.evolve(
      captureGame(5, [win('alice', { captures: 10 }), loss('bob', { captures: 4 })], {
        at: '2026-03-02T10:00:00+08:00',
      }),
    );
    fold.evolve(dailyClose('2026-03-02'));
    expect(fold.player('alice')).toMatchObject({ level: 24, captures: 10 });
    // Finished 2026-03-02 23:00 (day 2026-03-02), folded after that day's close.
    fold.evolve(
      captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 5 })], {
        at: '2026-03-02T23:00:00+08:00',
      }),
    );
    expect(fold.player('alice').captures).toBe(10); // 10 + min(5, 10 − 10)
    expect(fold.player('bob').captures).toBe(9); // 4 + min(5, 10 − 4)
    // The new day has its own tally.
    fold.evolve(
      captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 5 })], {
        at: '2026-03-03T08:00:00+08:00',
      }),
    );
    expect(fold.player('alice').captures).toBe(15); // 10 + 5
    expect(fold.player('bob').captures).toBe(14); // 9 + 5
  });

  describe('a late game is capped by its own day, however late (RULES.md: the close erases no tally)', () => {
    const DAY = '2026-03-02';
    /** Closes DAY and the `late` days after it: the game arrives `late` days after its day's close. */
    const closeThrough = (fold: LadderFold, late: number): void => {
      let key = DAY;
      for (let n = 0; n <= late; n++, key = nextDay(key)) fold.evolve(dailyClose(key));
    };
    const lateCorrection = (gameId: string, alice: number): LadderEvent =>
      parsed({
        id: nextId('corr'),
        type: 'game.corrected',
        ladder: 'xinbo-go',
        gameId,
        correctedAt: '2026-03-20T12:00:00+08:00',
        players: [win('alice', { captures: alice }), loss('bob', { captures: 0 })],
        note: 'adjudication',
      });

    it.each([1, 2, 10])(
      'Given alice credited 8 on a day, When a game of that day with 5 captures arrives %i day(s) after its close, Then only 2 are valid, and a second one credits nothing',
      (late) => {
        const fold = new LadderFold(XINBO);
        fold.evolve(
          captureGame(5, [win('alice', { captures: 8 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T10:00:00+08:00`,
          }),
        );
        closeThrough(fold, late);
        fold.evolve(
          captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T23:00:00+08:00`,
          }),
        );
        expect(fold.player('alice').captures).toBe(10); // 8 + min(5, 10 − 8)
        fold.evolve(
          captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 0 })], {
            at: `${nextDay(DAY)}T05:59:59+08:00`,
          }),
        );
        expect(fold.player('alice').captures).toBe(10); // 10 + min(5, 10 − 10): the same local day
        // The latest day has its own tally.
        fold.evolve(
          captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 0 })], {
            at: '2026-03-20T10:00:00+08:00',
          }),
        );
        expect(fold.player('alice').captures).toBe(15);
      },
    );

    it.each([1, 2, 10])(
      "Given a late game of a day with 8 credited, When it and then the first game are corrected %i day(s) after the close, Then each is recomputed from its own day's tally and later late games see the corrected tally",
      (late) => {
        const fold = new LadderFold(XINBO);
        fold.evolve(
          captureGame(5, [win('alice', { captures: 8 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T10:00:00+08:00`,
            gameId: `first-${late}`,
          }),
        );
        closeThrough(fold, late);
        fold.evolve(
          captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T23:00:00+08:00`,
            gameId: `late-${late}`,
          }),
        );
        expect(fold.player('alice').captures).toBe(10); // 8 + 2
        // The late game corrected to 9 captures: from the tally saved with it (8), still 2.
        expect(fold.evolve(lateCorrection(`late-${late}`, 9)).status).toBe('applied');
        expect(fold.player('alice').captures).toBe(10);
        // To 1 capture: 1 valid; the day's tally is 9.
        fold.evolve(lateCorrection(`late-${late}`, 1));
        expect(fold.player('alice').captures).toBe(9); // 10 − 2 + 1
        // The first game corrected to 3: recomputed from its tally (0), 3 valid; the day's 4.
        fold.evolve(lateCorrection(`first-${late}`, 3));
        expect(fold.player('alice').captures).toBe(4); // 9 − 8 + 3
        // Another late game of 10: room 10 − 4 = 6.
        fold.evolve(
          captureGame(5, [win('alice', { captures: 10 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T23:30:00+08:00`,
          }),
        );
        expect(fold.player('alice').captures).toBe(10); // 4 + min(10, 6)
        closeThrough(fold, late + 1);
        expect(fold.player('alice')).toMatchObject({ captures: 10, level: 24, rating: 200 });
      },
    );

    it('Given a replay with simulated closes, When a game arrives ten days late, Then it is capped by its own day as in the fold', () => {
      const out = replay(
        [
          captureLine(5, [win('alice', { captures: 8 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T10:00:00+08:00`,
          }),
          // Other players' games move the ladder's clock ten days on: DAY and nine more close.
          captureLine(3, [win('carol', { captures: 3 }), loss('dave', { captures: 0 })], {
            at: '2026-03-12T10:00:00+08:00',
          }),
          captureLine(5, [win('alice', { captures: 5 }), loss('bob', { captures: 0 })], {
            at: `${DAY}T23:00:00+08:00`,
          }),
        ],
        { simulate: true },
      );
      expect(out.ladders['xinbo-go']!.players['alice']).toMatchObject({ captures: 10, level: 25 });
    });

    it('Given the days a capture-stage player played, When the days close, Then each day keeps its tally (a tally taken back to 0 goes)', () => {
      const fold = new LadderFold(XINBO);
      let day = DAY;
      for (let n = 0; n < 10; n++, day = nextDay(day)) {
        fold.evolve(
          captureGame(3, [win('alice', { captures: 3 }), loss('bob', { captures: 0 })], {
            at: `${day}T10:00:00+08:00`,
            gameId: `d-${n}`,
          }),
        );
        fold.evolve(dailyClose(day));
      }
      expect(fold.player('alice').dayCaptures).toHaveLength(10);
      fold.evolve(lateCorrection('d-0', 0));
      fold.evolve(dailyClose(day));
      expect(fold.player('alice').dayCaptures.map((c) => c.key)).not.toContain(DAY);
      expect(fold.player('alice').dayCaptures).toHaveLength(9);
    });

    it('Given a player whose capture stage ends, When the stage ends and later corrections come, Then they keep no tally (none can cap anything any more)', () => {
      const fold = new LadderFold(XINBO);
      let day = DAY;
      for (let n = 0; n < 11; n++, day = nextDay(day)) {
        fold.evolve(
          captureGame(5, [win('alice', { captures: 10 }), loss('bob', { captures: 2 })], {
            at: `${day}T10:00:00+08:00`,
            gameId: `s-${n}`,
          }),
        );
        fold.evolve(dailyClose(day));
      }
      expect(fold.player('alice')).toMatchObject({ level: 14, territory: true, captures: 110 });
      expect(fold.player('alice').dayCaptures).toEqual([]);
      // bob is still in the capture stage: his 11 days stay.
      expect(fold.player('bob').dayCaptures).toHaveLength(11);
      fold.evolve(lateCorrection('s-0', 4));
      expect(fold.player('alice')).toMatchObject({ captures: 104, territory: true });
      expect(fold.player('alice').dayCaptures).toEqual([]);
      // A late capture game of a day she played in the stage is of the wrong kind now.
      fold.evolve(
        captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 0 })], {
          at: `${DAY}T23:00:00+08:00`,
        }),
      );
      expect(fold.player('alice')).toMatchObject({ captures: 104, wins: 12 });
    });

    it('Given a territory player restored with old tallies, When the day closes, Then they go', () => {
      const fold = foldWith({
        ...territoryPlayer('alice', 14, 2200),
        dayCaptures: [{ key: DAY, count: 10 }],
      });
      fold.evolve(dailyClose(nextDay(DAY)));
      expect(fold.player('alice').dayCaptures).toEqual([]);
      expect(fold.changedPlayers().map((p) => p.id)).toEqual(['alice']);
      // Once gone, a close writes the player no more.
      const again = LadderFold.restore(XINBO, fold.snapshot());
      again.evolve(dailyClose(nextDay(nextDay(DAY))));
      expect(again.changedPlayers()).toEqual([]);
    });
  });

  it('Given a capped day, When a drawn game credits its target, Then the cap applies to the credit too', () => {
    const fold = new LadderFold(XINBO);
    fold.evolve(
      captureGame(5, [win('alice', { captures: 9 }), loss('bob', { captures: 0 })], {
        at: '2026-03-02T09:00:00+08:00',
      }),
    );
    fold.evolve(
      captureGame(5, [draw('alice', { captures: 0 }), draw('bob', { captures: 0 })], {
        at: '2026-03-02T10:00:00+08:00',
        moves: 80,
      }),
    );
    expect(fold.player('alice').captures).toBe(10); // 9 + min(5, 1)
    expect(fold.player('bob').captures).toBe(5); // 0 + min(5, 10)
  });

  it('Given day-capped captures over several days, When the days close, Then the official level follows 25 − floor(captures/10)', () => {
    const fold = new LadderFold(XINBO);
    fold.evolve(
      captureGame(5, [win('alice', { captures: 10 }), loss('bob', { captures: 3 })], {
        at: '2026-03-02T10:00:00+08:00',
      }),
    );
    // Before the close nothing official moves.
    expect(fold.player('alice')).toMatchObject({ captures: 10, level: 25, rating: 0 });

    fold.evolve(dailyClose('2026-03-02'));
    expect(fold.player('alice')).toMatchObject({ level: 24, rating: 200 }); // 25 − 1; (25 − 24)·200
    expect(fold.player('bob')).toMatchObject({ level: 25, rating: 0 }); // floor(3/10) = 0

    fold.evolve(
      captureGame(5, [win('alice', { captures: 5 }), loss('bob', { captures: 5 })], {
        at: '2026-03-03T10:00:00+08:00',
      }),
    );
    fold.evolve(dailyClose('2026-03-03'));
    expect(fold.player('alice')).toMatchObject({ captures: 15, level: 24, rating: 200 }); // floor(15/10) = 1
    expect(fold.player('bob')).toMatchObject({ captures: 8, level: 25, rating: 0 });

    fold.evolve(
      captureGame(5, [win('alice', { captures: 12 }), loss('bob', { captures: 4 })], {
        at: '2026-03-04T10:00:00+08:00',
      }),
    );
    fold.evolve(dailyClose('2026-03-04'));
    // alice 15 + min(12, 10) = 25 → 25 − 2 = 23, 2·200 = 400; bob 8 + 4 = 12 → 24, 200.
    expect(fold.player('alice')).toMatchObject({
      captures: 25,
      level: 23,
      rating: 400,
      territory: false,
    });
    expect(fold.player('bob')).toMatchObject({ captures: 12, level: 24, rating: 200 });
  });

  it('Given a day that closes twice, When the second close arrives, Then nothing moves again', () => {
    const fold = new LadderFold(XINBO);
    fold.evolve(
      captureGame(5, [win('alice', { captures: 10 }), loss('bob', { captures: 0 })], {
        at: '2026-03-02T10:00:00+08:00',
      }),
    );
    fold.evolve(dailyClose('2026-03-02'));
    const again = fold.evolve(parsed({ ...closeLine('2026-03-02'), id: 'another-id' }));
    expect(again).toEqual({ status: 'applied', changes: [], disconnectPenalties: [] });
    expect(fold.player('alice')).toMatchObject({ level: 24, rating: 200 });
  });

  it('Given a daily close, When it moves a level, Then the change names the level move', () => {
    const fold = new LadderFold(XINBO);
    fold.evolve(
      captureGame(3, [win('alice', { captures: 10 }), loss('bob', { captures: 0 })], {
        at: '2026-03-02T10:00:00+08:00',
      }),
    );
    const outcome = fold.evolve(dailyClose('2026-03-02'));
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    expect(outcome.changes).toEqual([
      {
        player: 'alice',
        before: 0,
        after: 200,
        delta: 200,
        result: null,
        why: { kind: 'level', from: 25, to: 24, stage: 'capture' },
      },
    ]);
  });

  it('Given 11 days of 10 valid captures, When the 11th day closes, Then the stage ends at 14级 with score 2200 (replay, simulate)', () => {
    const lines: Record<string, unknown>[] = [];
    let day = '2026-03-02';
    for (let n = 0; n < 11; n++) {
      for (const hour of ['10', '11']) {
        lines.push(
          captureLine(5, [win('alice', { captures: 5 }), loss('bob', { captures: 3 })], {
            at: `${day}T${hour}:00:00+08:00`,
          }),
        );
      }
      day = nextDay(day);
    }
    // The 11th day is 2026-03-12; it closes at 2026-03-13 06:00.
    const justBefore = replay(lines, { simulate: true, until: '2026-03-13T05:59:59+08:00' });
    // 10 days closed: 100 captures → 25 − 10 = 15级, score 10·200 = 2000. Bob 60 → 19级, 1200.
    expect(justBefore.ladders['xinbo-go']!.players['alice']).toMatchObject({
      level: 15,
      rating: 2000,
      captures: 110,
    });
    const out = replay(lines, { simulate: true, until: '2026-03-13T06:00:00+08:00' });
    // alice: 22 games × 5 = 110 valid (10 a day) → 25 − 11 = 14: territory, 2200.
    expect(out.ladders['xinbo-go']!.players['alice']).toEqual({
      rating: 2200,
      games: 22,
      wins: 22,
      losses: 0,
      draws: 0,
      ranked: true,
      level: 14,
      captures: 110,
    });
    // bob: 22 × 3 = 66 → 25 − 6 = 19级, (25 − 19)·200 = 1200.
    expect(out.ladders['xinbo-go']!.players['bob']).toEqual({
      rating: 1200,
      games: 22,
      wins: 0,
      losses: 22,
      draws: 0,
      ranked: true,
      level: 19,
      captures: 66,
    });
  });

  it('Given a player who reached 14级 through real games, When they play on, Then territory games rate them and capture games are the wrong kind', () => {
    const fold = new LadderFold(XINBO);
    let day = '2026-03-02';
    for (let n = 0; n < 11; n++) {
      fold.evolve(
        captureGame(5, [win('alice', { captures: 10 }), loss('bob', { captures: 2 })], {
          at: `${day}T10:00:00+08:00`,
        }),
      );
      fold.evolve(dailyClose(day));
      day = nextDay(day);
    }
    expect(fold.player('alice')).toMatchObject({
      level: 14,
      territory: true,
      rating: 2200,
      captures: 110,
    });
    // bob: 11 × 2 = 22 → 25 − 2 = 23级, 400.
    expect(fold.player('bob')).toMatchObject({
      level: 23,
      territory: false,
      rating: 400,
      captures: 22,
    });

    // Territory game: alice (14级, bracket 14–10) wins +12; bob is in the capture stage: W/L only.
    fold.evolve(
      game([win('alice', { side: 'black' }), loss('bob', { side: 'white' })], {
        at: `${day}T10:00:00+08:00`,
      }),
    );
    expect(fold.player('alice')).toMatchObject({
      rating: 2212,
      games: 12,
      wins: 12,
      ratedGames: 12,
    }); // 2200 + 12
    expect(fold.player('bob')).toMatchObject({
      rating: 400,
      games: 12,
      losses: 12,
      ratedGames: 11,
      captures: 22,
    });

    // Capture game: alice is past the stage (W/L only, no captures); bob is credited.
    fold.evolve(
      captureGame(3, [loss('alice', { captures: 1 }), win('bob', { captures: 3 })], {
        at: `${day}T11:00:00+08:00`,
      }),
    );
    expect(fold.player('alice')).toMatchObject({
      rating: 2212,
      games: 13,
      losses: 1,
      ratedGames: 12,
      captures: 110,
    });
    expect(fold.player('bob')).toMatchObject({
      rating: 400,
      games: 13,
      wins: 1,
      ratedGames: 12,
      captures: 25,
    }); // 22 + 3
  });

  it('Given a capture game, When it is a short tournament teacher game with a big handicap, Then none of that matters', () => {
    const fold = new LadderFold(XINBO);
    const outcome = fold.evolve(
      captureGame(3, [win('alice', { captures: 3 }), loss('bob', { captures: 2 })], {
        moves: 4,
        context: { tournament: true, teacher: true, handicap: 5 },
      }),
    );
    expect(outcome.status).toBe('applied');
    expect(fold.player('alice')).toMatchObject({ captures: 3, games: 1, wins: 1, ratedGames: 1 });
    expect(fold.player('bob')).toMatchObject({ captures: 2, games: 1, losses: 1, ratedGames: 1 });
  });

  it('Given a capture game with handicap 2 and no sides, When it is folded, Then it is not invalid (capture games ignore handicap)', () => {
    const fold = new LadderFold(XINBO);
    const outcome = fold.evolve(
      captureGame(3, [win('alice', { captures: 3 }), loss('bob', { captures: 0 })], {
        context: { handicap: 2 },
      }),
    );
    expect(outcome.status).toBe('applied');
  });

  it('Given a short drawn capture game, When it is folded, Then it is a draw crediting nothing, not void', () => {
    const out = replay([
      captureLine(3, [draw('alice', { captures: 1 }), draw('bob', { captures: 1 })], { moves: 2 }),
    ]);
    expect(out.void).toEqual([]);
    expect(out.ladders['xinbo-go']!.players['alice']).toMatchObject({
      draws: 1,
      games: 1,
      captures: 0,
      ranked: true,
    });
  });

  it('Given a territory-stage player in a capture game, When it is folded, Then they count W/L only and the capture player is credited', () => {
    const fold = foldWith(territoryPlayer('tina', 12, 2650));
    fold.evolve(captureGame(5, [win('tina', { captures: 5 }), loss('kid', { captures: 4 })]));
    expect(fold.player('tina')).toMatchObject({
      rating: 2650,
      games: 1,
      wins: 1,
      ratedGames: 0,
      captures: 0,
    });
    expect(fold.player('kid')).toMatchObject({
      rating: 0,
      games: 1,
      losses: 1,
      ratedGames: 1,
      captures: 4,
    });
  });

  it('Given a capture player with many captures, When the day closes, Then the stage ends at 14 (not 10级)', () => {
    const fold = foldWith(capturePlayer('alice', 15, 150));
    fold.evolve(dailyClose('2026-03-02'));
    // 25 − floor(150/10) = 10, but reaching 14 ends the stage: 14级, 2200.
    expect(fold.player('alice')).toMatchObject({ level: 14, territory: true, rating: 2200 });
  });
});

// ---------------------------------------------------------------- territory stage

describe('xinbo-points territory stage', () => {
  describe('check 1: tournament', () => {
    it('Given a tournament game, When it is folded, Then it is recorded only: not even games move', () => {
      const fold = foldWith(territoryPlayer('alice', 12, 2600), territoryPlayer('bob', 12, 2600));
      const outcome = fold.evolve(
        game([win('alice'), loss('bob')], { context: { tournament: true } }),
      );
      expect(outcome).toEqual({ status: 'applied', changes: [], disconnectPenalties: [] });
      expect(fold.player('alice')).toMatchObject({
        rating: 2600,
        games: 0,
        wins: 0,
        ratedGames: 0,
      });
      expect(fold.player('bob')).toMatchObject({
        rating: 2600,
        games: 0,
        losses: 0,
        ratedGames: 0,
      });
    });

    it('Given a tournament game of 5 moves, When it is replayed, Then it is recorded (check 1 before check 2), not void', () => {
      const out = replay([
        gameLine([win('alice'), loss('bob')], { moves: 5, context: { tournament: true } }),
      ]);
      expect(out.void).toEqual([]);
      expect(out.rejected).toEqual([]);
      // New players with nothing recorded may be left out; if listed they have no games.
      const alice = out.ladders['xinbo-go']?.players['alice'];
      if (alice) expect(alice.games).toBe(0);
    });

    it('Given a tournament game between capture-stage players, Then it is recorded only too', () => {
      const fold = new LadderFold(XINBO);
      fold.evolve(game([win('alice'), loss('bob')], { context: { tournament: true } }));
      expect(fold.player('alice')).toMatchObject({ games: 0, wins: 0 });
    });
  });

  describe('check 2: fewer than 10 moves', () => {
    it('Given a 9-move territory game, When it is replayed, Then it is listed void too-short and moves nothing', () => {
      const line = gameLine([win('alice'), loss('bob')], { moves: 9 });
      const out = replay([line]);
      expect(out.void).toEqual([{ id: line['id'], reason: 'too-short' }]);
      const alice = out.ladders['xinbo-go']?.players['alice'];
      if (alice) expect(alice.games).toBe(0);
    });

    it('Given territory players and a 9-move game, When folded, Then it is void; at exactly 10 moves it counts', () => {
      const fold = foldWith(territoryPlayer('alice', 12, 2600), territoryPlayer('bob', 12, 2600));
      expect(fold.evolve(game([win('alice'), loss('bob')], { moves: 9 }))).toEqual({
        status: 'void',
        reason: 'too-short',
      });
      expect(fold.player('alice')).toMatchObject({ rating: 2600, games: 0 });
      fold.evolve(game([win('alice'), loss('bob')], { moves: 10 }));
      expect(fold.player('alice')).toMatchObject({ rating: 2612, games: 1, wins: 1 }); // 2600 + 12
      expect(fold.player('bob')).toMatchObject({ rating: 2600, games: 1, losses: 1 }); // 14–10: loss 0
    });

    it('Given a 9-move teacher game, When folded, Then check 2 wins over check 3: void', () => {
      const fold = foldWith(territoryPlayer('alice', 12, 2600), territoryPlayer('bob', 12, 2600));
      expect(
        fold.evolve(game([win('alice'), loss('bob')], { moves: 9, context: { teacher: true } })),
      ).toEqual({
        status: 'void',
        reason: 'too-short',
      });
    });

    it('Given a 9-move territory game between capture-stage players, Then it is void too (checks 1–4 apply to the whole game)', () => {
      const fold = new LadderFold(XINBO);
      expect(fold.evolve(game([win('alice'), loss('bob')], { moves: 9 }))).toEqual({
        status: 'void',
        reason: 'too-short',
      });
      expect(fold.player('alice').games).toBe(0);
    });
  });

  describe('checks 3 and 4: teacher, handicap 3 or more', () => {
    it('Given a teacher game, When folded, Then it counts W/L but moves no score', () => {
      const fold = foldWith(territoryPlayer('alice', 9, 3200), territoryPlayer('teacher', 1, 5000));
      fold.evolve(game([win('alice'), loss('teacher')], { context: { teacher: true } }));
      expect(fold.player('alice')).toMatchObject({
        rating: 3200,
        games: 1,
        wins: 1,
        ratedGames: 0,
      });
      expect(fold.player('teacher')).toMatchObject({
        rating: 5000,
        games: 1,
        losses: 1,
        ratedGames: 0,
      });
    });

    it.each([3, 4, 9])(
      'Given handicap %i (no sides needed), When folded, Then it is result-only',
      (handicap) => {
        const fold = foldWith(territoryPlayer('alice', 12, 2600), territoryPlayer('bob', 12, 2600));
        const outcome = fold.evolve(game([win('alice'), loss('bob')], { context: { handicap } }));
        expect(outcome.status).toBe('applied');
        expect(fold.player('alice')).toMatchObject({
          rating: 2600,
          games: 1,
          wins: 1,
          ratedGames: 0,
        });
        expect(fold.player('bob')).toMatchObject({
          rating: 2600,
          games: 1,
          losses: 1,
          ratedGames: 0,
        });
      },
    );

    it('Given handicap 3 between 14–10级 players, Then it is result-only although check 5 would not apply', () => {
      const fold = foldWith(territoryPlayer('alice', 14, 2200), territoryPlayer('bob', 14, 2200));
      fold.evolve(
        game([win('alice', { side: 'black' }), loss('bob', { side: 'white' })], {
          context: { handicap: 3 },
        }),
      );
      expect(fold.player('alice')).toMatchObject({ rating: 2200, wins: 1, ratedGames: 0 });
    });
  });

  describe('check 5: adjusted gap when both are 9级 or stronger', () => {
    it('Given an even game with a gap of exactly 300, When folded, Then it is result-only', () => {
      // |3500 − 3200| = 300 >= 300.
      const fold = foldWith(territoryPlayer('alice', 9, 3200), territoryPlayer('bob', 8, 3500));
      fold.evolve(game([win('alice'), loss('bob')]));
      expect(fold.player('alice')).toMatchObject({ rating: 3200, wins: 1, ratedGames: 0 });
      expect(fold.player('bob')).toMatchObject({ rating: 3500, losses: 1, ratedGames: 0 });
    });

    it('Given an even game with a gap of 299, When folded, Then both brackets apply', () => {
      // |3500 − 3201| = 299 < 300: alice 9级 win +20 → 3221; bob 8级 loss −10 → 3490.
      const fold = foldWith(territoryPlayer('alice', 9, 3201), territoryPlayer('bob', 8, 3500));
      fold.evolve(game([win('alice'), loss('bob')]));
      expect(fold.player('alice')).toMatchObject({ rating: 3221, ratedGames: 1 });
      expect(fold.player('bob')).toMatchObject({ rating: 3490, ratedGames: 1 });
    });

    it('Given 让先 (handicap 1) with white 300 ahead, When folded, Then the 200 taken off white makes it rated', () => {
      // |(3500 − 200·1) − 3200| = 100 < 300: bob (white, 8级) loses −10; alice (black, 9级) wins +20.
      const fold = foldWith(territoryPlayer('alice', 9, 3200), territoryPlayer('bob', 8, 3500));
      fold.evolve(
        game([win('alice', { side: 'black' }), loss('bob', { side: 'white' })], {
          context: { handicap: 1 },
        }),
      );
      expect(fold.player('alice').rating).toBe(3220);
      expect(fold.player('bob').rating).toBe(3490);
    });

    it('Given handicap 1 with white the weaker, When folded, Then the adjustment widens the gap to result-only', () => {
      // White 3300, black 3550: raw gap |3300 − 3550| = 250 < 300, but adjusted
      // |(3300 − 200·1) − 3550| = 450 >= 300 → result-only.
      const fold = foldWith(territoryPlayer('wendy', 9, 3300), territoryPlayer('bert', 8, 3550));
      fold.evolve(
        game([win('wendy', { side: 'white' }), loss('bert', { side: 'black' })], {
          context: { handicap: 1 },
        }),
      );
      expect(fold.player('wendy')).toMatchObject({ rating: 3300, wins: 1, ratedGames: 0 });
      expect(fold.player('bert')).toMatchObject({ rating: 3550, losses: 1, ratedGames: 0 });
    });

    it.each([
      ['white listed first', 0],
      ['white listed second', 1],
    ])(
      'Given two stones with %s, When folded, Then the white score is reduced by 400',
      (_name, whiteAt) => {
        // White 3700 (7级), black 3200 (9级): |(3700 − 400) − 3200| = 100 < 300 → rated
        // (raw gap 500 would have made it result-only). Black wins: 9级 +20 → 3220; white 7级 −10 → 3690.
        const fold = foldWith(territoryPlayer('white', 7, 3700), territoryPlayer('black', 9, 3200));
        const w = loss('white', { side: 'white' });
        const b = win('black', { side: 'black' });
        fold.evolve(game(whiteAt === 0 ? [w, b] : [b, w], { context: { handicap: 2 } }));
        expect(fold.player('black').rating).toBe(3220);
        expect(fold.player('white').rating).toBe(3690);
      },
    );

    it('Given one player at 10级, When the gap is 1000, Then check 5 does not apply', () => {
      // alice 10级 (14–10 bracket) wins +12 → 3012; bob 5级 (9–5 bracket) loses −10 → 3990.
      const fold = foldWith(territoryPlayer('alice', 10, 3000), territoryPlayer('bob', 5, 4000));
      fold.evolve(game([win('alice'), loss('bob')]));
      expect(fold.player('alice').rating).toBe(3012);
      expect(fold.player('bob').rating).toBe(3990);
    });

    it('Given check 5 uses live scores, When a 10级 has already scored into 9级 range, Then official levels decide whether it applies', () => {
      // alice official 10级 with live 3300 (would be 9级 by score); bob 9级 3000: gap 300 but alice is not 9级 officially.
      const fold = foldWith(territoryPlayer('alice', 10, 3300), territoryPlayer('bob', 9, 3000));
      fold.evolve(game([loss('alice'), win('bob')]));
      expect(fold.player('alice').rating).toBe(3300); // 14–10 loss 0
      expect(fold.player('bob').rating).toBe(3020); // 9–5 win +20
    });
  });

  describe('brackets by own official level', () => {
    it.each([
      // [winner level, winner score, loser level, loser score, winner after, loser after]
      [14, 2200, 12, 2600, 2212, 2600], // +12 / 0 (14–10)
      [10, 3000, 9, 3200, 3012, 3190], // +12 (14–10) / −10 (9–5)
      [9, 3200, 10, 3000, 3220, 3000], // +20 (9–5) / 0 (14–10)
      [5, 4000, 4, 4200, 4020, 4190], // +20 (9–5) / −10 (4–2), gap 200
      [4, 4200, 5, 4000, 4215, 3990], // +15 (4–2) / −10 (9–5)
      [2, 4600, 1, 4800, 4615, 4788], // +15 (4–2) / −12 (1), gap 200
      [1, 4800, 2, 4600, 4812, 4590], // +12 (1) / −10 (4–2)
      [1, 5000, 1, 4900, 5012, 4888], // +12 / −12, gap 100
    ])(
      'Given a %i级 (%i) beating a %i级 (%i), Then the scores become %i and %i',
      (wl, ws, ll, ls, wAfter, lAfter) => {
        const fold = foldWith(territoryPlayer('w', wl, ws), territoryPlayer('l', ll, ls));
        fold.evolve(game([win('w'), loss('l')]));
        expect(fold.player('w')).toMatchObject({
          rating: wAfter,
          wins: 1,
          games: 1,
          ratedGames: 1,
        });
        expect(fold.player('l')).toMatchObject({
          rating: lAfter,
          losses: 1,
          games: 1,
          ratedGames: 1,
        });
      },
    );

    it('Given a draw between territory players, Then nothing moves but the draws', () => {
      const fold = foldWith(territoryPlayer('alice', 9, 3200), territoryPlayer('bob', 8, 3400));
      fold.evolve(game([draw('alice'), draw('bob')]));
      expect(fold.player('alice')).toMatchObject({
        rating: 3200,
        draws: 1,
        games: 1,
        ratedGames: 1,
      });
      expect(fold.player('bob')).toMatchObject({ rating: 3400, draws: 1, games: 1, ratedGames: 1 });
    });

    it('Given a loss that would take the score below 0, Then the score stops at 0', () => {
      // alice official 1级 but her live score fell to 5 (penalties); bob 10级 so check 5 is skipped.
      // Loss −12 from 5 → max(0, −7) = 0. bob +12 → 3012.
      const fold = foldWith(territoryPlayer('alice', 1, 5), territoryPlayer('bob', 10, 3000));
      fold.evolve(game([loss('alice'), win('bob')]));
      expect(fold.player('alice')).toMatchObject({ rating: 0, losses: 1 });
      expect(fold.player('bob').rating).toBe(3012);
    });

    it('Given a score that crosses a level boundary, When no daily close has come yet, Then the old official bracket still applies', () => {
      const fold = foldWith(
        territoryPlayer('alice', 10, 3188),
        territoryPlayer('bob', 10, 3000),
        territoryPlayer('carl', 12, 2600),
      );
      fold.evolve(game([win('alice'), loss('bob')], { at: '2026-03-02T09:00:00+08:00' }));
      expect(fold.player('alice')).toMatchObject({ rating: 3200, level: 10 }); // 3188 + 12; still 10级
      fold.evolve(game([loss('alice'), win('carl')], { at: '2026-03-02T10:00:00+08:00' }));
      expect(fold.player('alice').rating).toBe(3200); // 10级: loss 0
      fold.evolve(dailyClose('2026-03-02'));
      expect(fold.player('alice').level).toBe(9); // 25 − floor(3200/200) = 9
      fold.evolve(game([loss('alice'), win('carl')], { at: '2026-03-03T10:00:00+08:00' }));
      expect(fold.player('alice').rating).toBe(3190); // 9级: loss −10
      fold.evolve(dailyClose('2026-03-03'));
      expect(fold.player('alice').level).toBe(10); // 25 − floor(3190/200) = 25 − 15
    });
  });

  describe('games of the wrong kind, per player', () => {
    it('Given a capture-stage player against a territory player in a territory game, Then only the territory player is rated', () => {
      const fold = foldWith(capturePlayer('kid', 20, 52), territoryPlayer('tina', 12, 2600));
      fold.evolve(game([loss('kid'), win('tina')]));
      expect(fold.player('kid')).toMatchObject({
        rating: 1000,
        games: 1,
        losses: 1,
        ratedGames: 0,
        captures: 52,
      });
      expect(fold.player('tina')).toMatchObject({ rating: 2612, games: 1, wins: 1, ratedGames: 1 }); // 2600 + 12
    });

    it('Given a capture-stage player who wins a territory game, Then they gain no score', () => {
      const fold = foldWith(capturePlayer('kid', 20, 52), territoryPlayer('vic', 5, 4000));
      fold.evolve(game([win('kid'), loss('vic')]));
      expect(fold.player('kid')).toMatchObject({ rating: 1000, wins: 1, ratedGames: 0 });
      // vic alone is in the territory stage: check 5 needs both, so the 9–5 loss −10 applies.
      expect(fold.player('vic')).toMatchObject({ rating: 3990, losses: 1, ratedGames: 1 });
    });

    it('Given two capture-stage players in a territory game, Then both count W/L only and are not ranked', () => {
      const out = replay([gameLine([win('alice'), loss('bob')], { moves: 100 })]);
      expect(out.ladders['xinbo-go']!.players['alice']).toEqual({
        rating: 0,
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: false,
        level: 25,
        captures: 0,
      });
      expect(out.ladders['xinbo-go']!.players['bob']).toMatchObject({
        games: 1,
        losses: 1,
        ranked: false,
      });
    });
  });
});

// ---------------------------------------------------------------- rejections, penalties, output

describe('xinbo-points rejections', () => {
  const reject = (line: Record<string, unknown>, code: string, before: PlayerState[] = []) => {
    const fold = foldWith(...before);
    expectRejected(fold.evolve(parsed(line)), code);
    expect(fold.accepted).toBe(0);
    return fold;
  };

  it('Given a capture game without captureTarget, Then invalid-event', () => {
    reject(
      gameLine([win('a', { captures: 3 }), loss('b', { captures: 0 })], {
        context: { kind: 'capture' },
      }),
      'invalid-event',
    );
  });

  it('Given a capture game where a player has no captures, Then invalid-event and nothing moves', () => {
    const fold = reject(captureLine(3, [win('a', { captures: 3 }), loss('b')]), 'invalid-event');
    expect(fold.player('a').captures).toBe(0);
  });

  it('Given a capture game missing captureTarget and with results win/win, Then invalid-event comes first', () => {
    reject(
      gameLine([win('a', { captures: 3 }), win('b', { captures: 0 })], {
        context: { kind: 'capture' },
      }),
      'invalid-event',
    );
  });

  it.each([
    ['both black', 1, 'black', 'black'],
    ['a side missing', 2, 'white', undefined],
    ['no sides', 1, undefined, undefined],
  ] as const)('Given a handicap game with %s, Then invalid-event', (_name, handicap, s1, s2) => {
    const players = [win('a', s1 ? { side: s1 } : {}), loss('b', s2 ? { side: s2 } : {})];
    reject(gameLine(players, { context: { handicap } }), 'invalid-event', [
      territoryPlayer('a', 9, 3200),
      territoryPlayer('b', 9, 3200),
    ]);
  });

  it('Given a missing result, Then invalid-event', () => {
    reject(gameLine([{ id: 'a' }, loss('b')]), 'invalid-event');
  });

  it.each([
    ['win/win', 'win', 'win'],
    ['loss/loss', 'loss', 'loss'],
    ['win/draw', 'win', 'draw'],
  ] as const)('Given results %s, Then inconsistent-result', (_name, r1, r2) => {
    reject(
      gameLine([
        { id: 'a', result: r1 },
        { id: 'b', result: r2 },
      ]),
      'inconsistent-result',
    );
  });

  it('Given three players, Then wrong-player-count', () => {
    reject(gameLine([win('a'), loss('b'), loss('c')]), 'wrong-player-count');
  });

  it('Given the same player twice, Then duplicate-player', () => {
    reject(gameLine([win('a'), loss('a')]), 'duplicate-player');
  });

  it('Given rejected events in a replay, Then they are listed with their ids and move nothing', () => {
    const bad = captureLine(3, [win('a', { captures: 3 }), loss('b')]);
    const out = replay([bad]);
    expect(out.rejected).toEqual([{ id: bad['id'], reason: 'invalid-event' }]);
    expect(out.ladders['xinbo-go']?.players['a']).toBeUndefined();
  });
});

describe('xinbo-points penalties (floor 0)', () => {
  it.each([
    [2250, -100, 2150], // no floor reached
    [50, -100, 0], // max(0, 50 − 100)
    [0, -100, 0], // at the floor: not penalized
  ])('Given a score of %i, When penalized %i, Then the score is %i', (score, points, after) => {
    const fold = foldWith(territoryPlayer('alice', 14, score));
    fold.evolve(parsed(penaltyLine('alice', points)));
    expect(fold.player('alice').rating).toBe(after);
  });
});

describe('xinbo-points output', () => {
  it('Given games of both kinds, When rendered, Then each player has rating, record, ranked, level and captures only', () => {
    const out = replay([
      captureLine(3, [win('alice', { captures: 3 }), loss('bob', { captures: 2 })], {
        at: '2026-03-02T10:00:00+08:00',
      }),
      captureLine(3, [win('alice', { captures: 3 }), loss('bob', { captures: 2 })], {
        at: '2026-03-02T11:00:00+08:00',
      }),
      captureLine(3, [win('alice', { captures: 3 }), loss('bob', { captures: 2 })], {
        at: '2026-03-02T12:00:00+08:00',
      }),
      captureLine(3, [win('alice', { captures: 3 }), loss('bob', { captures: 2 })], {
        at: '2026-03-02T13:00:00+08:00',
      }),
      closeLine('2026-03-02'),
    ]);
    // alice 3 + 3 + 3 + min(3, 1) = 10 → 24级, 200. bob 4 × 2 = 8 → 25级, 0.
    expect(out.ladders['xinbo-go']!.players).toEqual({
      alice: {
        rating: 200,
        games: 4,
        wins: 4,
        losses: 0,
        draws: 0,
        ranked: true,
        level: 24,
        captures: 10,
      },
      bob: {
        rating: 0,
        games: 4,
        wins: 0,
        losses: 4,
        draws: 0,
        ranked: true,
        level: 25,
        captures: 8,
      },
    });
  });

  it('Given a simulated replay, When days pass without games, Then the levels stay what the captures give', () => {
    const out = replay(
      [
        captureLine(5, [win('alice', { captures: 10 }), loss('bob', { captures: 0 })], {
          at: '2026-03-02T10:00:00+08:00',
        }),
        captureLine(5, [win('alice', { captures: 10 }), loss('bob', { captures: 0 })], {
          at: '2026-03-05T10:00:00+08:00',
        }),
      ],
      { simulate: true, until: '2026-03-08T06:00:00+08:00' },
    );
    // 10 on 03-02 and 10 on 03-05 → 20 → 25 − 2 = 23级, 400.
    expect(out.ladders['xinbo-go']!.players['alice']).toMatchObject({
      level: 23,
      rating: 400,
      captures: 20,
    });
  });
});
