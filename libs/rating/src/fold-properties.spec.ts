import { jest } from '@jest/globals';
import fc from 'fast-check';
import {
  instantMillis,
  type LadderEvent,
  parseEvent,
  type PlayerAnnulled,
  type PlayerReport,
} from '@ranking/contracts';
import {
  type GameInput,
  type GameScore,
  ladderRegistry,
  LadderFold,
  type LadderOutcome,
  ReplayEngine,
  RULE_SETS,
} from '@ranking/rating';

// Properties of the whole fold over arbitrary, realistic logs: every built-in ladder, some
// invalid lines, repeated ids, corrections, penalties and period closes.

const LADDERS = ladderRegistry();
const LADDER_IDS = [
  'qq-gomoku',
  'igame-gomoku',
  'igame-gomoku-casual',
  'qq-xiangqi',
  'xinbo-go',
  'qq-blokus',
  'qq-fifty-k',
] as const;
type LadderId = (typeof LADDER_IDS)[number];
const PEOPLE = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay'];
const START = Date.parse('2026-11-20T10:00:00+08:00');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Kind = 'game' | 'correct' | 'penalty' | 'close' | 'junk' | 'repeat' | 'annul';
interface Step {
  readonly kind: Kind;
  /** Minutes since the previous line. */
  readonly dt: number;
  readonly ladder: number;
  /** Dice for every other choice. */
  readonly r: readonly number[];
}

/** Steps of a log; with `annulments`, now and then a `player.annulled` too. */
const stepArbOf = (annulments: boolean): fc.Arbitrary<Step> =>
  fc.record({
    kind: fc.oneof(
      { arbitrary: fc.constant<Kind>('game'), weight: 14 },
      { arbitrary: fc.constant<Kind>('correct'), weight: 3 },
      { arbitrary: fc.constant<Kind>('penalty'), weight: 2 },
      { arbitrary: fc.constant<Kind>('close'), weight: 2 },
      { arbitrary: fc.constant<Kind>('junk'), weight: 1 },
      { arbitrary: fc.constant<Kind>('repeat'), weight: 1 },
      ...(annulments ? [{ arbitrary: fc.constant<Kind>('annul'), weight: 1 }] : []),
    ),
    // Mostly minutes apart, now and then most of a day: a log of 200 lines spans about three weeks
    // from 2026-11-20 (so it crosses weekly closes and, often, November's close). --until adds up to 12 days.
    dt: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 90 }), weight: 5 },
      { arbitrary: fc.integer({ min: 0, max: 1200 }), weight: 1 },
    ),
    ladder: fc.integer({ min: 0, max: LADDER_IDS.length - 1 }),
    r: fc.array(fc.nat(9999), { minLength: 16, maxLength: 16 }),
  });

interface Log {
  readonly lines: readonly string[];
  /** --until (epoch ms) or none. */
  readonly until: number | null;
}

interface Played {
  readonly gameId: string;
  readonly players: readonly PlayerReport[];
}

const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length]!;

function twoPlayers(r: readonly number[]): [string, string] {
  const i = r[0]! % PEOPLE.length;
  const j = (i + 1 + (r[1]! % (PEOPLE.length - 1))) % PEOPLE.length;
  return [PEOPLE[i]!, PEOPLE[j]!];
}

/** Mostly win/loss, some draws, a few results that do not fit one game. */
function twoResults(n: number): ['win' | 'loss' | 'draw', 'win' | 'loss' | 'draw'] {
  const k = n % 20;
  if (k < 8) return ['win', 'loss'];
  if (k < 16) return ['loss', 'win'];
  if (k < 19) return ['draw', 'draw'];
  return ['win', 'win'];
}

const flip = (p: PlayerReport): PlayerReport =>
  p.result === 'win' ? { ...p, result: 'loss' } : p.result === 'loss' ? { ...p, result: 'win' } : p;

function gameBody(
  ladder: LadderId,
  r: readonly number[],
): { players: PlayerReport[]; moves: number; context?: object } {
  const [a, b] = twoPlayers(r);
  const [ra, rb] = twoResults(r[2]!);
  const moves = r[6]! % 12 === 0 ? r[7]! % 12 : 12 + (r[7]! % 200);
  switch (ladder) {
    case 'qq-gomoku':
    case 'igame-gomoku-casual':
      return {
        moves,
        players: [
          { id: a, result: ra },
          { id: b, result: rb },
        ],
      };
    case 'igame-gomoku': {
      const sameIp = r[3]! % 25 === 0;
      return {
        moves,
        players: [
          { id: a, result: ra, ip: `10.0.0.${a}`, disconnected: r[4]! % 4 === 0 },
          {
            id: b,
            result: rb,
            ip: sameIp ? `10.0.0.${a}` : `10.0.0.${b}`,
            disconnected: r[5]! % 4 === 0,
          },
        ],
      };
    }
    case 'qq-xiangqi': {
      const firstA = r[3]! % 2 === 0;
      return {
        moves: r[6]! % 10 === 0 ? r[7]! % 3 : moves,
        players: [
          { id: a, result: ra, first: firstA, side: 'red' },
          { id: b, result: rb, first: !firstA },
        ],
      };
    }
    case 'xinbo-go': {
      if (r[3]! % 3 !== 0) {
        return {
          moves,
          context: { kind: 'capture', captureTarget: r[8]! % 2 === 0 ? 3 : 5 },
          players: [
            { id: a, result: ra, captures: r[9]! % 9 },
            { id: b, result: rb, captures: r[10]! % 9 },
          ],
        };
      }
      return {
        moves,
        context: {
          kind: 'territory',
          handicap: r[8]! % 5 === 0 ? r[9]! % 4 : 0,
          teacher: r[10]! % 15 === 0,
          tournament: r[11]! % 15 === 0,
        },
        players: [
          { id: a, result: ra, side: 'black' },
          { id: b, result: rb, side: 'white' },
        ],
      };
    }
    case 'qq-blokus': {
      const four = r[3]! % 3 === 0;
      const ids = four ? [0, 1, 2, 3].map((k) => PEOPLE[(r[0]! + k) % PEOPLE.length]!) : [a, b];
      // Winners keep no more squares than losers, except in the "win/win" case.
      const low = r[4]! % 10;
      return {
        moves,
        players: ids.map((id, k) => {
          const result = k % 2 === 0 ? ra : rb;
          const remaining = result === 'win' ? low : low + (r[5 + k]! % 20);
          return {
            id,
            result,
            remaining,
            perfect: r[12 + k]! % 10 === 0,
            ...(four ? { team: k % 2 === 0 ? 'x' : 'y' } : {}),
          };
        }),
      };
    }
    case 'qq-fifty-k': {
      const four = r[3]! % 2 === 0;
      const n = four ? 4 : 3;
      const ids = Array.from({ length: n }, (_, k) => PEOPLE[(r[0]! + k) % PEOPLE.length]!);
      const order: (number | null)[] = new Array<number | null>(n).fill(null);
      if (!four) {
        const holding = r[4]! % 3;
        const others = [0, 1, 2].filter((k) => k !== holding);
        const swap = r[5]! % 2 === 1;
        order[others[swap ? 1 : 0]!] = 1;
        order[others[swap ? 0 : 1]!] = 2;
      } else if (r[4]! % 3 === 0) {
        // A sweep: one team (seats of one parity) out first and second.
        const team = r[5]! % 2;
        order[team] = 1 + (r[6]! % 2);
        order[team + 2] = 2 - (r[6]! % 2);
      } else {
        const first = r[5]! % 4;
        const second = ((first + 1) % 2) + 2 * (r[6]! % 2); // a seat of the other parity
        const rest = [0, 1, 2, 3].filter((k) => k !== first && k !== second);
        order[first] = 1;
        order[second] = 2;
        order[rest[r[7]! % 2]!] = 3;
      }
      return {
        moves,
        players: ids.map((id, k) => ({
          id,
          seat: k,
          tablePoints: 5 * (r[8 + k]! % 15),
          finishOrder: order[k]!,
          handPoints: r[12 + k]! % 30,
          // Now and then a stated result, which may disagree with the hand.
          ...(r[2]! % 10 === 0 && k === 0 ? { result: 'win' as const } : {}),
        })),
      };
    }
  }
}

// Both zones are UTC+8 all year (no DST), so local times are plain arithmetic (and fast).
const OFFSET = 8 * 60 * MINUTE;
const pad = (n: number): string => String(n).padStart(2, '0');
const local = (ms: number): Date => new Date(ms + OFFSET);
const iso = (ms: number): string => `${local(ms).toISOString().slice(0, 19)}+08:00`;

/** ISO week key (`2026-W48`) of a UTC-shifted date. */
function isoWeek(d: Date): string {
  const day = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day + 3),
  );
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY));
  return `${year}-W${pad(week)}`;
}

function periodKey(period: 'daily' | 'weekly' | 'monthly', at: number): string {
  const d = local(at);
  if (period === 'monthly') return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
  // Days and weeks start at 06:00 local.
  const day = local(at - 6 * 60 * MINUTE);
  return period === 'daily' ? day.toISOString().slice(0, 10) : isoWeek(day);
}

/** Turns the dice into NDJSON lines, in time order. */
function build(steps: readonly Step[], untilDays: number | null): Log {
  const lines: string[] = [];
  const played = new Map<LadderId, Played[]>();
  let t = START;
  for (const [n, step] of steps.entries()) {
    t += step.dt * MINUTE;
    // Half the penalties go to i.Game, so that its ratings reach the floor.
    const ladder =
      step.kind === 'penalty' && step.r[3]! % 2 === 0 ? 'igame-gomoku' : LADDER_IDS[step.ladder]!;
    const r = step.r;
    const id = `e${n}`;
    switch (step.kind) {
      case 'game': {
        const games = played.get(ladder) ?? [];
        // Now and then a game id comes again.
        const gameId =
          r[15]! % 30 === 0 && games.length > 0 ? pick(games, r[14]!).gameId : `${ladder}-g${n}`;
        const body = gameBody(ladder, r);
        lines.push(
          JSON.stringify({
            id,
            type: 'game.finished',
            ladder,
            gameId,
            finishedAt: iso(t),
            ...body,
          }),
        );
        played.set(ladder, [...games, { gameId, players: body.players }]);
        break;
      }
      case 'correct': {
        const games = played.get(ladder) ?? [];
        const target =
          games.length > 0 && r[0]! % 10 !== 0
            ? pick(games, r[1]!)
            : { gameId: 'no-such-game', players: [] };
        const base = {
          id,
          type: 'game.corrected',
          ladder,
          gameId: target.gameId,
          correctedAt: iso(t),
        };
        if (r[2]! % 3 === 0 || target.players.length === 0) {
          lines.push(JSON.stringify({ ...base, void: true }));
          break;
        }
        let players: PlayerReport[] = target.players.map((p, k) => {
          if (ladder === 'qq-fifty-k')
            return k === r[3]! % target.players.length
              ? { id: p.id, tablePoints: 5 * (r[4]! % 15) }
              : { id: p.id };
          if (ladder === 'xinbo-go' && p.captures !== undefined)
            return { id: p.id, result: flip(p).result, captures: r[5 + k]! % 9 };
          return { id: p.id, result: flip(p).result };
        });
        // Now and then a stranger, or a correction that brings a voided game back as it was.
        if (r[6]! % 12 === 0) players = [{ ...players[0]!, id: 'zed' }, ...players.slice(1)];
        if (r[7]! % 6 === 0) players = target.players.map((p) => ({ ...p }));
        lines.push(JSON.stringify({ ...base, players }));
        break;
      }
      case 'penalty': {
        const points = pick([-100, -100, -30, -200, -500, -1500, -2000, -1], r[0]!);
        lines.push(
          JSON.stringify({
            id,
            type: 'player.penalized',
            ladder,
            player: pick(PEOPLE, r[1]!),
            points,
            reason: r[2]! % 2 === 0 ? 'disconnects' : 'manual',
            at: iso(t),
          }),
        );
        break;
      }
      case 'close': {
        const period = pick(['daily', 'weekly', 'monthly'] as const, r[0]!);
        const back =
          (r[1]! % 3) * (period === 'daily' ? DAY : period === 'weekly' ? 7 * DAY : 31 * DAY);
        const key = periodKey(period, t - back);
        lines.push(
          JSON.stringify({
            id: r[2]! % 2 === 0 ? `period.closed:${ladder}:${period}:${key}` : id,
            type: 'period.closed',
            ladder,
            period,
            key,
            start: iso(t - DAY),
            end: iso(t),
          }),
        );
        break;
      }
      case 'junk':
        lines.push(
          pick(
            [
              '',
              '   ',
              '{"id":"broken"',
              `{"id":"${id}","type":"game.finished","ladder":"qq-gomoku"}`,
              '{"id":5,"type":"period.closed"}',
              `{"id":"${id}","type":"player.penalized","ladder":"igame-gomoku","player":"ann","points":NaN,"reason":"x","at":"2026-11-29T10:00:00+08:00"}`,
              JSON.stringify({
                id,
                type: 'game.finished',
                ladder: 'no-such-ladder',
                gameId: 'g',
                finishedAt: iso(t),
                moves: 40,
                players: [
                  { id: 'ann', result: 'win' },
                  { id: 'bob', result: 'loss' },
                ],
              }),
              JSON.stringify({
                id,
                type: 'game.finished',
                ladder: 'qq-gomoku',
                gameId: 'g',
                finishedAt: iso(t),
                moves: 40,
                players: [
                  { id: 'ann', result: 'win' },
                  { id: 'ann', result: 'loss' },
                ],
              }),
            ],
            r[0]!,
          ),
        );
        break;
      case 'repeat':
        if (lines.length > 0) lines.push(pick(lines, r[0]!));
        break;
      case 'annul':
        // Now and then a player who never plays; `since` up to four days back.
        lines.push(
          JSON.stringify({
            id,
            type: 'player.annulled',
            ladder,
            player: r[0]! % 8 === 0 ? 'zed' : pick(PEOPLE, r[1]!),
            since: iso(t - (r[2]! % (4 * 24 * 60)) * MINUTE),
            annulledAt: iso(t),
          }),
        );
        break;
    }
  }
  return { lines, until: untilDays === null ? null : t + untilDays * DAY };
}

const logArbOf = (annulments: boolean): fc.Arbitrary<Log> =>
  fc
    .tuple(
      fc.array(stepArbOf(annulments), { maxLength: 200, size: 'large' }),
      fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
    )
    .map(([steps, untilDays]) => build(steps, untilDays));
const logArb = logArbOf(false);
/** Logs with annulments (of the players who play, and of one who never does). */
const annulledLogArb = logArbOf(true);

function run(
  lines: readonly string[],
  simulate: boolean,
  until: number | null,
  skill = false,
): ReplayEngine {
  const engine = new ReplayEngine(LADDERS, { simulate, skill });
  for (const l of lines) engine.ingestLine(l);
  engine.finish(until);
  return engine;
}

const render = (engine: ReplayEngine): string => [...engine.render()].join('');

const NUM_RUNS = Number(process.env.NUM_RUNS ?? 50);

describe('fold properties (fast-check)', () => {
  it.each([false, true])(
    'Given an arbitrary log (simulate %s), When it is folded twice, Then render() is byte-identical',
    (simulate) => {
      fc.assert(
        fc.property(logArb, ({ lines, until }) => {
          expect(render(run(lines, simulate, until))).toBe(render(run(lines, simulate, until)));
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );

  it.each([false, true])(
    'Given an arbitrary log split anywhere (simulate %s), When the first part is snapshotted, JSON round-tripped and restored, Then continuing gives the unsplit output',
    (simulate) => {
      fc.assert(
        fc.property(logArb, fc.nat(), ({ lines, until }, at) => {
          // Given
          const split = lines.length === 0 ? 0 : at % (lines.length + 1);
          const whole = render(run(lines, simulate, until));
          // When
          const head = new ReplayEngine(LADDERS, { simulate });
          for (const l of lines.slice(0, split)) head.ingestLine(l);
          const snapshot = JSON.parse(JSON.stringify(head.snapshot())) as ReturnType<
            ReplayEngine['snapshot']
          >;
          const resumed = ReplayEngine.restore(LADDERS, snapshot);
          for (const l of lines.slice(split)) resumed.ingestLine(l);
          resumed.finish(until);
          // Then
          expect(render(resumed)).toBe(whole);
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );

  describe('per-event outcomes', () => {
    // Every event a ladder folds, including the closes and penalties that --simulate plays.
    let spy: jest.SpiedFunction<LadderFold['evolve']>;
    beforeEach(() => {
      spy = jest.spyOn(LadderFold.prototype, 'evolve');
    });
    afterEach(() => spy.mockRestore());

    function folded(): { event: LadderEvent; outcome: LadderOutcome }[] {
      return spy.mock.calls.map(([event], k) => {
        const result = spy.mock.results[k]!;
        if (result.type !== 'return') throw new Error('evolve threw');
        return { event, outcome: result.value };
      });
    }

    it.each([false, true])(
      'Given an arbitrary log (simulate %s), When folded, Then every qq-points game and correction is zero-sum, and the ladder sums to its penalties',
      (simulate) => {
        fc.assert(
          fc.property(logArb, ({ lines, until }) => {
            spy.mockClear();
            const engine = run(lines, simulate, until);
            let penalties = 0;
            for (const { event, outcome } of folded()) {
              if (event.ladder !== 'qq-gomoku' || outcome.status !== 'applied') continue;
              const sum = outcome.changes.reduce((s, c) => s + c.delta, 0);
              if (event.type === 'game.finished' || event.type === 'game.corrected')
                expect(sum).toBe(0);
              // qq-points has no penalty floor: a penalty applies as it is.
              if (event.type === 'player.penalized') {
                expect(sum).toBe(event.points);
                penalties += event.points;
              }
            }
            const out = JSON.parse(render(engine)) as {
              ladders: Record<string, { players: Record<string, { rating: number }> }>;
            };
            const ratings = Object.values(out.ladders['qq-gomoku']?.players ?? {}).map(
              (p) => p.rating,
            );
            expect(ratings.reduce((s, x) => s + x, 0)).toBe(penalties);
          }),
          { numRuns: NUM_RUNS },
        );
      },
    );

    it.each([false, true])(
      'Given an arbitrary log (simulate %s), When i.Game penalties apply (weekly, monthly, player.penalized), Then none takes a rating from above 100 to below 100',
      (simulate) => {
        let floored = 0;
        fc.assert(
          fc.property(logArb, ({ lines, until }) => {
            spy.mockClear();
            run(lines, simulate, until);
            for (const { event, outcome } of folded()) {
              if (event.ladder !== 'igame-gomoku' || outcome.status !== 'applied') continue;
              if (event.type !== 'period.closed' && event.type !== 'player.penalized') continue;
              for (const c of outcome.changes) {
                if (c.why.kind !== 'penalty') continue;
                // RULES.md: never below 100; a rating at or below 100 is not penalized; flat amounts.
                const expected =
                  c.before <= 100 ? c.before : Math.max(100, c.before + c.why.points);
                expect(c.after).toBe(expected);
                if (c.before > 100) expect(c.after).toBeGreaterThanOrEqual(100);
                if (c.before + c.why.points < 100) floored += 1;
              }
            }
          }),
          { numRuns: NUM_RUNS },
        );
        // The logs do reach the floor (large penalties, many weeks).
        expect(floored).toBeGreaterThan(0);
      },
    );
  });
});

// RULES.md "Annulment" as properties. The oracle folds the log with no annulment at all: each
// game an annulment covers is marked (its moves shifted by MARK, which the rule sets never see)
// and scored by the rule set as usual, then stripped to "played but worth nothing" by a wrapper
// written here; a non-void correction of a covered game stands in as a zero-point penalty of a
// player who never plays (it changes nothing, but moves the simulated clock as the correction
// does), and so does each annulment.

const MARK = 1_000_000;

/**
 * A `player.penalized` of 0 points for `zed`, at an instant: accepted, changes nothing (the
 * schema wants points below 0, so it is handed to the engine as an event, not a line).
 */
const standIn = (event: LadderEvent, at: string): LadderEvent => ({
  id: event.id,
  type: 'player.penalized',
  ladder: event.ladder,
  player: 'zed',
  points: 0,
  reason: 'stand-in',
  at,
});

/** The score of a marked game: the rule set's own, each effect kept only as played. */
function playedButWorthNothing(score: (input: GameInput) => GameScore) {
  return (input: GameInput): GameScore => {
    if (input.moves < MARK) return score(input);
    const scored = score({ ...input, moves: input.moves - MARK });
    if (scored.kind !== 'scored') return scored;
    return {
      kind: 'scored',
      effects: scored.effects.map((e) => ({
        ...e,
        rating: 0,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        captures: 0,
      })),
    };
  };
}

function oracle(lines: readonly string[], simulate: boolean, until: number | null): string {
  const events = lines.map((l) => {
    const parsed = parseEvent(l);
    return parsed.ok ? parsed.event : null;
  });
  // Verdicts do not depend on annulments (a rule of its own, tested apart): read them from a
  // fold where each annulment stands in as a zero-point penalty.
  const plain = new ReplayEngine(LADDERS, { simulate, keepLogs: new Set() });
  const verdicts = lines.map((l, i) => {
    const e = events[i];
    return (
      e?.type === 'player.annulled' ? plain.ingest(standIn(e, e.annulledAt)) : plain.ingestLine(l)
    ).kind;
  });
  const annulments = events.flatMap((e, i) =>
    e?.type === 'player.annulled' && verdicts[i] === 'accepted' ? [{ at: i, event: e }] : [],
  );
  const covers = (a: { at: number; event: PlayerAnnulled }, e: LadderEvent, i: number) =>
    e.type === 'game.finished' &&
    a.at > i &&
    a.event.ladder === e.ladder &&
    e.players.some((p) => p.id === a.event.player) &&
    instantMillis(e.finishedAt) >= instantMillis(a.event.since);
  const spies = Object.values(RULE_SETS).map((rules) => {
    const score = rules.score.bind(rules);
    return jest.spyOn(rules, 'score').mockImplementation(playedButWorthNothing(score));
  });
  try {
    const engine = new ReplayEngine(LADDERS, { simulate, keepLogs: new Set() });
    /** The latest accepted game of each ladder and game id: whether it is covered. */
    const latest = new Map<string, boolean>();
    lines.forEach((l, i) => {
      const e = events[i];
      if (e?.type === 'player.annulled') return engine.ingest(standIn(e, e.annulledAt));
      if (e?.type === 'game.finished' && verdicts[i] === 'accepted') {
        const covered = annulments.some((a) => covers(a, e, i));
        latest.set(`${e.ladder} ${e.gameId}`, covered);
        if (covered) return engine.ingest({ ...e, moves: e.moves + MARK });
      }
      if (
        e?.type === 'game.corrected' &&
        verdicts[i] === 'accepted' &&
        e.void !== true &&
        latest.get(`${e.ladder} ${e.gameId}`) === true
      )
        return engine.ingest(standIn(e, e.correctedAt));
      return engine.ingestLine(l);
    });
    engine.finish(until);
    return render(engine);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe('annulment properties (fast-check)', () => {
  it.each([false, true])(
    'Given an arbitrary log with annulments (simulate %s), When folded, Then it equals the oracle: the log without annulments where covered games are played but worth nothing',
    (simulate) => {
      let refolds = 0;
      fc.assert(
        fc.property(annulledLogArb, ({ lines, until }) => {
          const engine = run(lines, simulate, until);
          refolds += [...engine.ladderFolds.values()].filter((f) =>
            f.snapshot().games.some((g) => g.covered),
          ).length;
          expect(render(engine)).toBe(oracle(lines, simulate, until));
        }),
        { numRuns: NUM_RUNS },
      );
      // The logs do cover games.
      expect(refolds).toBeGreaterThan(0);
    },
  );

  it.each([false, true])(
    'Given an arbitrary log with annulments (simulate %s), When each ladder’s kept log is folded again with LadderFold.fromLog, Then it holds what the replay holds',
    (simulate) => {
      fc.assert(
        fc.property(annulledLogArb, ({ lines, until }) => {
          const engine = run(lines, simulate, until);
          for (const fold of engine.ladderFolds.values()) {
            const log = (fold.snapshot().log ?? []).map((t) => JSON.parse(t) as LadderEvent);
            const again = LadderFold.fromLog(fold.ladder, log);
            const byId = (f: LadderFold) =>
              [...f.players.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
            expect(byId(again)).toEqual(byId(fold));
            expect(again.snapshot().games).toEqual(fold.snapshot().games);
          }
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );

  it.each([false, true])(
    'Given an arbitrary log with annulments (simulate %s), When an annulment that covers nothing is added anywhere, Then the output is as with a zero-point penalty in its place',
    (simulate) => {
      fc.assert(
        fc.property(annulledLogArb, fc.nat(), fc.nat(), ({ lines, until }, at, who) => {
          // Given: at the latest instant so far, `since` a day later: no game before it is covered.
          const split = at % (lines.length + 1);
          const before = lines
            .slice(0, split)
            .map((l) => parseEvent(l))
            .flatMap((p) => (p.ok ? [p.event] : []));
          const annulledAt = Math.max(START, ...before.map(eventTime));
          const annulment: LadderEvent = {
            id: 'nothing-covered',
            type: 'player.annulled',
            ladder: pick(LADDER_IDS, who),
            player: pick(PEOPLE, who),
            since: iso(annulledAt + DAY),
            annulledAt: iso(annulledAt),
          };
          const withIt = [
            ...lines.slice(0, split),
            JSON.stringify(annulment),
            ...lines.slice(split),
          ];
          // Then (the stand-in is passed as an event: the schema wants a penalty below 0)
          const standing = new ReplayEngine(LADDERS, { simulate });
          for (const l of lines.slice(0, split)) standing.ingestLine(l);
          standing.ingest(standIn(annulment, iso(annulledAt)));
          for (const l of lines.slice(split)) standing.ingestLine(l);
          standing.finish(until);
          expect(render(run(withIt, simulate, until))).toBe(render(standing));
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );

  it.each([false, true])(
    'Given an arbitrary log with annulments split anywhere (simulate %s), When the first part is snapshotted, JSON round-tripped and restored, Then continuing gives the unsplit output',
    (simulate) => {
      fc.assert(
        fc.property(annulledLogArb, fc.nat(), ({ lines, until }, at) => {
          const split = lines.length === 0 ? 0 : at % (lines.length + 1);
          const head = new ReplayEngine(LADDERS, { simulate });
          for (const l of lines.slice(0, split)) head.ingestLine(l);
          const snapshot = JSON.parse(JSON.stringify(head.snapshot())) as ReturnType<
            ReplayEngine['snapshot']
          >;
          const resumed = ReplayEngine.restore(LADDERS, snapshot);
          for (const l of lines.slice(split)) resumed.ingestLine(l);
          resumed.finish(until);
          expect(render(resumed)).toBe(render(run(lines, simulate, until)));
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );
});

// The skill estimate (ADR 19) as a second projection: it never changes the official output, and
// it is as deterministic as the official fold (split anywhere, JSON round trip, same numbers).

type Rendered = { ladders: Record<string, { players: Record<string, Record<string, unknown>> }> };

/** The output with every player's "skill" member taken out (and how many there were). */
function withoutSkill(text: string): { out: Rendered; skills: number } {
  const out = JSON.parse(text) as Rendered;
  let skills = 0;
  for (const ladder of Object.values(out.ladders))
    for (const player of Object.values(ladder.players)) {
      if ('skill' in player) skills += 1;
      delete player.skill;
    }
  return { out, skills };
}

describe('skill estimate properties (fast-check)', () => {
  it.each([false, true])(
    'Given an arbitrary log with corrections and annulments (simulate %s), When it is replayed with and without the skill estimate, Then the outputs are the same but for each player’s "skill" member',
    (simulate) => {
      fc.assert(
        fc.property(annulledLogArb, ({ lines, until }) => {
          // When
          const plain = render(run(lines, simulate, until));
          const skilled = withoutSkill(render(run(lines, simulate, until, true)));
          // Then
          expect(skilled.out).toEqual(JSON.parse(plain));
          // Every listed player has one.
          const listed = Object.values(skilled.out.ladders).reduce(
            (n, l) => n + Object.keys(l.players).length,
            0,
          );
          expect(skilled.skills).toBe(listed);
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );

  it.each([false, true])(
    'Given an arbitrary log with corrections and annulments split anywhere (simulate %s), When the first part is folded with the skill estimate, snapshotted, JSON round-tripped and restored, Then continuing gives the unsplit output, skill included',
    (simulate) => {
      fc.assert(
        fc.property(annulledLogArb, fc.nat(), ({ lines, until }, at) => {
          // Given
          const split = lines.length === 0 ? 0 : at % (lines.length + 1);
          const whole = run(lines, simulate, until, true);
          // When
          const head = new ReplayEngine(LADDERS, { simulate, skill: true });
          for (const l of lines.slice(0, split)) head.ingestLine(l);
          const snapshot = JSON.parse(JSON.stringify(head.snapshot())) as ReturnType<
            ReplayEngine['snapshot']
          >;
          const resumed = ReplayEngine.restore(LADDERS, snapshot);
          for (const l of lines.slice(split)) resumed.ingestLine(l);
          resumed.finish(until);
          // Then: the output, and each book whole (saved games and last-played instants too).
          expect(render(resumed)).toBe(render(whole));
          for (const [id, fold] of whole.ladderFolds)
            expect(resumed.ladderFolds.get(id)!.skill!.snapshot()).toEqual(fold.skill!.snapshot());
        }),
        { numRuns: NUM_RUNS },
      );
    },
  );
});

/** An event's instant in epoch ms as the generated logs write them (closes: their end). */
function eventTime(e: LadderEvent): number {
  switch (e.type) {
    case 'game.finished':
      return instantMillis(e.finishedAt);
    case 'game.corrected':
      return instantMillis(e.correctedAt);
    case 'player.penalized':
      return instantMillis(e.at);
    case 'player.annulled':
      return instantMillis(e.annulledAt);
    case 'period.closed':
      return instantMillis(e.end);
  }
}
