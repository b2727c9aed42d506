import type { GameContext, GameFinished, LadderEvent, PlayerReport } from '@ranking/contracts';
import {
  BUILT_IN_LADDERS,
  CLOSE_ORDER,
  type LadderConfig,
  PeriodCalendar,
  type PeriodWindow,
  type PlayerSnapshot,
  RULE_SETS,
  type RuleSetName,
  settingOf,
} from '@ranking/rating';
import { SeededRandom } from './seeded-random.js';
import { performance, poolStrengths, winChance } from './true-strength.js';

export interface GeneratorOptions {
  readonly seed: number;
  readonly events: number;
  /** First instant of the stream (RFC 3339). */
  readonly start?: string;
  /** Days the stream spans. */
  readonly days?: number;
  readonly ladders?: readonly LadderConfig[];
  /** Share of bad lines (each rejection code, repeated ids). */
  readonly badShare?: number;
  /** Share of corrections of recent games. */
  readonly correctionShare?: number;
  /**
   * Share of `player.annulled` events (a recent game's player, from a few days back); 0 by
   * default, and at 0 the stream is the same as before annulments existed.
   */
  readonly annulmentShare?: number;
  /** Emit period.closed events as the maintenance service would. */
  readonly closes?: boolean;
  /** Players per ladder; by default grows with the stream. */
  readonly playersPerLadder?: number;
  /**
   * Give each simulated player a true strength (Elo points, normal around 0 with this standard
   * deviation; see `trueStrengths`) and draw results from it: Bradley-Terry on the strength
   * difference (teams: the sum), card hands dealt by strength plus noise; draws keep their
   * share. 0 by default: coin flips, the stream as it was before strengths existed.
   */
  readonly strengthSpread?: number;
  /**
   * What every generated id begins with: a producer's namespace (`simulator:`) for games sent
   * through the intake (ADR 39). Empty by default: the stream as it was.
   */
  readonly idPrefix?: string;
}

/** How often each rule set's ladder gets a game, relative to the others. */
const TRAFFIC: Record<RuleSetName, number> = {
  'igame-elo': 30,
  'qq-points': 20,
  'qq-elo': 15,
  'xinbo-points': 10,
  'card-points': 10,
  squares: 8,
  'record-only': 7,
};

interface RecentGame {
  readonly gameId: string;
  readonly players: readonly PlayerReport[];
  readonly ruleSet: RuleSetName;
}

interface LadderStream {
  readonly ladder: LadderConfig;
  readonly cumulative: number[];
  readonly players: number;
  /** Each player's true strength, by index; null for coin flips. */
  readonly strengths: Float64Array | null;
  readonly recent: RecentGame[];
  readonly calendar: PeriodCalendar;
  clock: Map<PeriodWindow['period'], PeriodWindow> | null;
  games: number;
}

const BAD_KINDS = [
  'invalid-json',
  'invalid-event',
  'unknown-ladder',
  'wrong-player-count',
  'duplicate-player',
  'inconsistent-result',
  'unknown-game',
  'repeated-id',
] as const;

/**
 * A deterministic stream of realistic ladder events, one JSON line each: uneven player
 * activity (a few regulars, a long tail), every built-in rule set with its edge cases,
 * corrections, and a share of bad lines.
 */
export function* generateEvents(options: GeneratorOptions): Generator<string> {
  const rnd = new SeededRandom(options.seed);
  const ladders = options.ladders ?? BUILT_IN_LADDERS;
  const total = options.events;
  const start = Date.parse(options.start ?? '2026-11-01T00:00:00+08:00');
  const span = (options.days ?? 45) * 86_400_000;
  const badShare = options.badShare ?? 0.02;
  const correctionShare = options.correctionShare ?? 0.01;
  const annulmentShare = options.annulmentShare ?? 0;
  const perLadder = poolSize(options);
  const spread = strengthSpreadOf(options);
  const streams: LadderStream[] = ladders.map((ladder, index) => {
    const cumulative: number[] = [];
    let sum = 0;
    for (let i = 0; i < perLadder; i++) cumulative.push((sum += 1 / (i + 1) ** 0.8));
    return {
      ladder,
      cumulative,
      players: perLadder,
      strengths: spread === 0 ? null : poolStrengths(options.seed, index, perLadder, spread),
      recent: [],
      calendar: new PeriodCalendar(ladder.timezone),
      clock: null,
      games: 0,
    };
  });
  const trafficCumulative: number[] = [];
  let traffic = 0;
  for (const s of streams) trafficCumulative.push((traffic += TRAFFIC[s.ladder.ruleSet]));
  let lastGood = '';
  let emitted = 0;
  let serial = 0;
  const nextId = () =>
    `${options.idPrefix ?? ''}${options.seed.toString(36)}-${(serial++).toString(36)}`;

  while (emitted < total) {
    const at = start + Math.floor((emitted / total) * span) + rnd.int(0, 59) * 1000;
    const stream = streams[rnd.weighted(trafficCumulative)]!;
    if (options.closes) {
      for (const close of dueCloses(stream, at)) {
        if (emitted >= total) return;
        yield JSON.stringify(close);
        emitted++;
      }
      if (emitted >= total) return;
    }
    const iso = stream.calendar.iso(at);
    const roll = rnd.next();
    let line: string;
    if (roll < badShare) {
      line = badLine(rnd, stream, nextId(), iso, lastGood);
    } else if (roll < badShare + correctionShare && stream.recent.length > 0) {
      line = JSON.stringify(correction(rnd, stream, nextId(), iso));
    } else if (roll < badShare + correctionShare + annulmentShare && stream.recent.length > 0) {
      line = JSON.stringify(annulment(rnd, stream, nextId(), at));
    } else {
      const game = gameEvent(rnd, stream, nextId(), iso);
      line = JSON.stringify(game);
      lastGood = line;
    }
    yield line;
    emitted++;
  }
}

/** Players in each ladder's pool. */
const poolSize = (options: GeneratorOptions): number =>
  options.playersPerLadder ?? Math.max(20, Math.min(20_000, Math.floor(options.events / 40)));

function strengthSpreadOf(options: GeneratorOptions): number {
  const spread = options.strengthSpread ?? 0;
  if (!(spread >= 0 && Number.isFinite(spread)))
    throw new Error(`strengthSpread ${spread}: must be a finite number >= 0`);
  return spread;
}

/**
 * The true strength of every player of each ladder's pool (the players `generateEvents` draws
 * from with the same options, including those it never picks), by ladder and player id: all 0
 * without `strengthSpread`, where results are coin flips.
 */
export function trueStrengths(options: GeneratorOptions): Record<string, Record<string, number>> {
  const ladders = options.ladders ?? BUILT_IN_LADDERS;
  const perLadder = poolSize(options);
  const spread = strengthSpreadOf(options);
  const truth: Record<string, Record<string, number>> = {};
  ladders.forEach((ladder, index) => {
    const strengths = poolStrengths(options.seed, index, perLadder, spread);
    const players: Record<string, number> = {};
    const prefix = playerPrefix(ladder);
    for (let i = 0; i < perLadder; i++) players[`${prefix}${i}`] = strengths[i]!;
    truth[ladder.id] = players;
  });
  return truth;
}

function dueCloses(stream: LadderStream, at: number): LadderEvent[] {
  const rules = RULE_SETS[stream.ladder.ruleSet];
  const periods = CLOSE_ORDER.filter((p) => p === 'daily' || rules.closes.includes(p));
  if (!stream.clock) {
    stream.clock = new Map(periods.map((p) => [p, stream.calendar.windowAt(p, at)]));
    return [];
  }
  const out: LadderEvent[] = [];
  for (;;) {
    let due: PeriodWindow | undefined;
    for (const p of periods) {
      const w = stream.clock.get(p)!;
      if (w.closesAt <= at && (!due || w.closesAt < due.closesAt)) due = w;
    }
    if (!due) return out;
    stream.clock.set(due.period, stream.calendar.following(due));
    out.push({
      id: `period.closed:${stream.ladder.id}:${due.period}:${due.key}`,
      type: 'period.closed',
      ladder: stream.ladder.id,
      period: due.period,
      key: due.key,
      start: stream.calendar.iso(due.start),
      end: stream.calendar.iso(due.end),
    });
  }
}

function pickPlayers(rnd: SeededRandom, stream: LadderStream, count: number): number[] {
  const chosen: number[] = [];
  while (chosen.length < count) {
    const i = rnd.weighted(stream.cumulative);
    if (!chosen.includes(i)) chosen.push(i);
  }
  return chosen;
}

const playerPrefix = (ladder: LadderConfig): string => ladder.id.split('-')[1] ?? 'p';

const playerId = (stream: LadderStream, i: number) => `${playerPrefix(stream.ladder)}${i}`;

/** The true strength of a side of players (by index): the sum of theirs. */
const strengthOf = (stream: LadderStream, side: readonly number[]): number =>
  side.reduce((sum, i) => sum + stream.strengths![i]!, 0);

/** The chance that side `a` beats side `b` in a decisive game: a coin flip without strengths. */
const chanceOf = (stream: LadderStream, a: readonly number[], b: readonly number[]): number =>
  stream.strengths === null ? 0.5 : winChance(strengthOf(stream, a), strengthOf(stream, b));

/** A draw by its share, else the first player wins with `firstWins`. */
function twoResults(
  rnd: SeededRandom,
  drawShare: number,
  firstWins: number,
): ['win' | 'loss' | 'draw', 'win' | 'loss' | 'draw'] {
  if (rnd.chance(drawShare)) return ['draw', 'draw'];
  return rnd.chance(firstWins) ? ['win', 'loss'] : ['loss', 'win'];
}

function gameEvent(
  rnd: SeededRandom,
  stream: LadderStream,
  id: string,
  finishedAt: string,
): GameFinished {
  const ruleSet = stream.ladder.ruleSet;
  stream.games++;
  const gameId = `${stream.ladder.id}-g${stream.games}`;
  const base = { id, type: 'game.finished' as const, ladder: stream.ladder.id, gameId, finishedAt };
  let event: GameFinished;
  switch (ruleSet) {
    case 'igame-elo':
    case 'record-only':
    case 'qq-points': {
      const [a, b] = pickPlayers(rnd, stream, 2) as [number, number];
      const [ra, rb] = twoResults(rnd, 0.08, chanceOf(stream, [a], [b]));
      const sameIp = ruleSet === 'igame-elo' && rnd.chance(0.01);
      const ip = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.${sameIp ? 1 : 2 + (i % 200)}`;
      const players: PlayerReport[] = [
        {
          id: playerId(stream, a),
          result: ra,
          side: 'black',
          first: true,
          ip: sameIp ? '10.9.9.9' : ip(a),
          disconnected: rnd.chance(0.03),
        },
        {
          id: playerId(stream, b),
          result: rb,
          side: 'white',
          first: false,
          ip: sameIp ? '10.9.9.9' : ip(b),
          disconnected: rnd.chance(0.03),
        },
      ];
      event = {
        ...base,
        moves: rnd.int(9, 120),
        reason: ra === 'draw' ? 'agreed' : 'five',
        players,
      };
      break;
    }
    case 'qq-elo': {
      const [a, b] = pickPlayers(rnd, stream, 2) as [number, number];
      const [ra, rb] = twoResults(rnd, 0.1, chanceOf(stream, [a], [b]));
      const moves = rnd.chance(0.02) ? rnd.int(0, 1) : rnd.int(10, 160);
      event = {
        ...base,
        moves,
        reason: moves < 2 ? 'escape' : 'checkmate',
        players: [
          { id: playerId(stream, a), result: ra, side: 'red', first: true },
          { id: playerId(stream, b), result: rb, side: 'black', first: false },
        ],
      };
      break;
    }
    case 'xinbo-points':
      event = { ...base, ...xinboGame(rnd, stream) };
      break;
    case 'squares':
      event = { ...base, ...squaresGame(rnd, stream) };
      break;
    case 'card-points':
      event = { ...base, ...cardGame(rnd, stream) };
      break;
  }
  stream.recent.push({ gameId, players: event.players, ruleSet });
  if (stream.recent.length > 200) stream.recent.shift();
  return event;
}

function xinboGame(
  rnd: SeededRandom,
  stream: LadderStream,
): Pick<GameFinished, 'moves' | 'context' | 'players'> {
  const [a, b] = pickPlayers(rnd, stream, 2) as [number, number];
  const [ra, rb] = twoResults(rnd, 0.06, chanceOf(stream, [a], [b]));
  if (rnd.chance(0.5)) {
    const target = rnd.pick([3, 5] as const);
    const own = (r: string) => (r === 'win' ? target : rnd.int(0, target - 1));
    return {
      moves: rnd.int(15, 120),
      context: { kind: 'capture', boardSize: 9, captureTarget: target },
      players: [
        { id: playerId(stream, a), result: ra, side: 'black', captures: own(ra) },
        { id: playerId(stream, b), result: rb, side: 'white', captures: own(rb) },
      ],
    };
  }
  const context: GameContext = {
    kind: 'territory',
    boardSize: rnd.pick([9, 13, 19] as const),
    handicap: rnd.chance(0.1) ? rnd.int(1, 2) : rnd.chance(0.03) ? rnd.int(3, 9) : 0,
    teacher: rnd.chance(0.03),
    tournament: rnd.chance(0.02),
  };
  return {
    moves: rnd.chance(0.04) ? rnd.int(0, 9) : rnd.int(30, 300),
    context,
    players: [
      { id: playerId(stream, a), result: ra, side: 'black' },
      { id: playerId(stream, b), result: rb, side: 'white' },
    ],
  };
}

function squaresGame(
  rnd: SeededRandom,
  stream: LadderStream,
): Pick<GameFinished, 'moves' | 'players'> {
  const teams = rnd.chance(0.3);
  const picked = pickPlayers(rnd, stream, teams ? 4 : 2);
  const ids = picked.map((i) => playerId(stream, i));
  const draw = rnd.chance(0.05);
  const best = rnd.chance(0.2) ? 0 : rnd.int(1, 12);
  const sideOf = (i: number) => (teams ? i % 2 : i);
  // Side 0 wins a decisive game; with strengths, by its chance against side 1.
  const side = (s: number) => picked.filter((_, i) => sideOf(i) === s);
  const winning =
    draw || stream.strengths === null ? 0 : rnd.chance(chanceOf(stream, side(0), side(1))) ? 0 : 1;
  const players = ids.map((id, i): PlayerReport => {
    const winner = sideOf(i) === winning;
    const remaining = draw
      ? best
      : winner
        ? best + (teams && i > 0 ? rnd.int(0, 10) : 0)
        : best + 20 + rnd.int(0, 40);
    return {
      id,
      result: draw ? 'draw' : winner ? 'win' : 'loss',
      remaining,
      perfect: rnd.chance(0.05),
      ...(teams ? { team: sideOf(i) === 0 ? 'red' : 'blue' } : {}),
    };
  });
  return { moves: rnd.int(20, 84), players };
}

function cardGame(
  rnd: SeededRandom,
  stream: LadderStream,
): Pick<GameFinished, 'moves' | 'players'> {
  const four = rnd.chance(0.7);
  const picked = pickPlayers(rnd, stream, four ? 4 : 3);
  const ids = picked.map((i) => playerId(stream, i));
  const orders: (number | null)[] = four
    ? rnd.chance(0.3)
      ? rnd.chance(0.5)
        ? [1, null, 2, null]
        : [null, 1, null, 2]
      : rnd.pick([
          [1, 2, 3, null],
          [2, 1, null, 3],
          [1, 2, null, 3],
          [3, 1, 2, null],
        ])
    : rnd.pick([
        [1, 2, null],
        [2, null, 1],
        [null, 1, 2],
      ]);
  const players = ids.map((id, seat): PlayerReport => ({
    id,
    seat,
    tablePoints: rnd.chance(0.15) ? 0 : 5 * rnd.int(0, 20),
    finishOrder: orders[seat] ?? null,
    handPoints: orders[seat] == null ? 5 * rnd.int(0, 12) : 0,
  }));
  if (stream.strengths !== null) dealByStrength(rnd, stream, picked, players);
  return { moves: rnd.int(20, 60), players };
}

const NO_STATE: PlayerSnapshot = { rating: 0, level: 0, territory: false, dayTally: 0 };

/**
 * Seats the players of a dealt hand by strength (ids rewritten in place): with three, the
 * hand's places (as the rule set derives them) go in order of strength plus noise; with four,
 * the hand's winning pair of seats goes to the pair (by seat parity) that wins by its chance.
 */
function dealByStrength(
  rnd: SeededRandom,
  stream: LadderStream,
  picked: readonly number[],
  players: PlayerReport[],
): void {
  const score = RULE_SETS['card-points'].score({
    ladder: stream.ladder,
    moves: 40,
    setting: settingOf(undefined),
    players,
    before: players.map(() => NO_STATE),
  });
  if (score.kind !== 'scored') return;
  let order: number[];
  if (players.length === 3) {
    const places = score.effects.map((e) => (e.why.kind === 'card-points' ? e.why.place! : 0));
    const shown = picked.map((i) => performance(stream.strengths![i]!, rnd));
    const byForm = [0, 1, 2].sort((x, y) => shown[y]! - shown[x]!);
    order = places.map((place) => byForm[place - 1]!);
  } else {
    const evenWins = rnd.chance(
      chanceOf(stream, [picked[0]!, picked[2]!], [picked[1]!, picked[3]!]),
    );
    const dealtEven = score.effects[0]!.result === 'win';
    order = evenWins === dealtEven ? [0, 1, 2, 3] : [1, 0, 3, 2];
  }
  const ids = order.map((k) => playerId(stream, picked[k]!));
  players.forEach((p, seat) => (p.id = ids[seat]!));
}

function correction(
  rnd: SeededRandom,
  stream: LadderStream,
  id: string,
  correctedAt: string,
): LadderEvent {
  const game = rnd.pick(stream.recent);
  const base = {
    id,
    type: 'game.corrected' as const,
    ladder: stream.ladder.id,
    gameId: game.gameId,
    correctedAt,
  };
  const twoPlayer = !['squares', 'card-points'].includes(game.ruleSet);
  if (!twoPlayer || rnd.chance(0.3))
    return { ...base, void: true, note: 'adjudicated: game annulled' };
  const flip = { win: 'loss', loss: 'win', draw: 'draw' } as const;
  return {
    ...base,
    players: game.players.map((p) => ({ id: p.id, result: flip[p.result ?? 'draw'] })),
    note: 'adjudicated: result reversed',
  };
}

function annulment(rnd: SeededRandom, stream: LadderStream, id: string, at: number): LadderEvent {
  const game = rnd.pick(stream.recent);
  return {
    id,
    type: 'player.annulled',
    ladder: stream.ladder.id,
    player: rnd.pick(game.players).id,
    since: stream.calendar.iso(at - rnd.int(0, 72) * 3_600_000),
    annulledAt: stream.calendar.iso(at),
    note: 'fair-play review',
  };
}

function badLine(
  rnd: SeededRandom,
  stream: LadderStream,
  id: string,
  finishedAt: string,
  lastGood: string,
): string {
  const kind = rnd.pick(BAD_KINDS);
  const ladder = stream.ladder.id;
  const game = (players: PlayerReport[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id,
      type: 'game.finished',
      ladder,
      gameId: `bad-${id}`,
      finishedAt,
      moves: 40,
      players,
      ...extra,
    });
  switch (kind) {
    case 'invalid-json':
      return game([
        { id: 'x', result: 'win' },
        { id: 'y', result: 'loss' },
      ]).slice(0, 30);
    case 'invalid-event':
      return JSON.stringify({
        id,
        type: 'game.finished',
        ladder,
        finishedAt,
        moves: -3,
        players: [],
      });
    case 'unknown-ladder':
      return game(
        [
          { id: 'x', result: 'win' },
          { id: 'y', result: 'loss' },
        ],
        { ladder: 'no-such-ladder' },
      );
    case 'wrong-player-count':
      return game(
        [
          { id: 'x', result: 'win' },
          { id: 'y', result: 'loss' },
          { id: 'z', result: 'loss' },
        ],
        {
          ladder:
            stream.ladder.ruleSet === 'card-points' || stream.ladder.ruleSet === 'squares'
              ? 'qq-gomoku'
              : ladder,
        },
      );
    case 'duplicate-player':
      return game(
        [
          { id: 'x', result: 'win' },
          { id: 'x', result: 'loss' },
        ],
        { ladder: 'qq-gomoku' },
      );
    case 'inconsistent-result':
      return game(
        [
          { id: 'x', result: 'win', first: true },
          { id: 'y', result: 'win' },
        ],
        { ladder: 'qq-xiangqi' },
      );
    case 'unknown-game':
      return JSON.stringify({
        id,
        type: 'game.corrected',
        ladder,
        gameId: `never-played-${id}`,
        correctedAt: finishedAt,
        void: true,
      });
    case 'repeated-id':
      return (
        lastGood ||
        game([
          { id: 'x', result: 'win' },
          { id: 'y', result: 'win' },
        ])
      );
  }
}
