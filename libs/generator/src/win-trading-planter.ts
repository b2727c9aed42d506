import type { GameFinished } from '@ranking/contracts';
import { BUILT_IN_LADDERS, PeriodCalendar } from '@ranking/rating';
import { SeededRandom } from './seeded-random.js';
import { winChance } from './true-strength.js';

/**
 * A stream of one two-player ladder with win-trading planted in it, and the truth written
 * apart, to measure a detector on (bench/integrity.bench.ts). Honest play is Bradley-Terry on
 * true strengths; around it:
 * - planted pairs, where the feeder is about as strong as the beneficiary or stronger and loses
 *   to it nearly always: new accounts that play honestly elsewhere, and established regulars
 *   who start throwing games (some from the beneficiary's /24);
 * - honest look-alikes that must not be flagged: friends who play each other very often and
 *   split the results, rivals whose lopsided record follows their strengths, weak new students
 *   who play mostly one strong teacher, the elite who meet hundreds of times, and the strongest
 *   regular, who slumps halfway through.
 */
export interface PlanterOptions {
  readonly seed: number;
  /** Games in the stream (all of them game.finished). */
  readonly events: number;
  readonly ladder?: string;
  readonly start?: string;
  readonly days?: number;
  /** Win-trading pairs planted (half new accounts, half regulars). */
  readonly planted?: number;
}

export type PlantedKind = 'new-account' | 'regular';
export type LookAlikeKind = 'friends' | 'rivals' | 'teacher' | 'elite';

export interface PlantedTruth {
  readonly ladder: string;
  readonly planted: readonly {
    readonly beneficiary: string;
    readonly feeder: string;
    readonly kind: PlantedKind;
    readonly sameNetwork: boolean;
  }[];
  readonly lookAlikes: readonly {
    readonly players: readonly [string, string];
    readonly kind: LookAlikeKind;
  }[];
  /** The honest regular whose strength drops by SLUMP halfway. */
  readonly slumping: string;
  /** Every player's true strength (the slumping one's before the slump). */
  readonly strengths: Readonly<Record<string, number>>;
}

export interface PlantedStream {
  readonly truth: PlantedTruth;
  /** The stream's lines, in time order. */
  lines(): Generator<string>;
}

/** A game the planter scheduled: `score` is a's (1, 0.5, 0) or null to draw it from strengths. */
interface Scheduled {
  readonly at: number;
  readonly a: number;
  readonly b: number;
  readonly aWins: number | null;
}

const ELITE = 8;
const SLUMP = 350;
const DAY = 86_400_000;

export function plantWinTrading(options: PlanterOptions): PlantedStream {
  const ladderId = options.ladder ?? 'igame-gomoku';
  const ladder = BUILT_IN_LADDERS.find((l) => l.id === ladderId);
  if (!ladder) throw new Error(`no built-in ladder ${ladderId}`);
  const rnd = new SeededRandom((options.seed * 2654435761) >>> 0);
  const start = Date.parse(options.start ?? '2026-03-01T00:00:00+08:00');
  const span = (options.days ?? 90) * DAY;
  const pool = Math.max(300, Math.min(20_000, Math.floor(options.events / 250)));
  const strengths: number[] = [];
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - rnd.next())) * Math.cos(2 * Math.PI * rnd.next());
  for (let i = 0; i < pool; i++) strengths.push(Math.round(200 * normal()));
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < pool; i++) cumulative.push((sum += 1 / (i + 1) ** 0.8));
  const ip: string[] = Array.from(
    { length: pool },
    (_, i) => `10.${(i >> 8) & 255}.${i & 255}.${2 + (i % 200)}`,
  );
  const id = (i: number) => `p${i}`;
  const addPlayer = (strength: number, address: string): number => {
    strengths.push(Math.round(strength));
    ip.push(address);
    return strengths.length - 1;
  };
  const newAddress = (n: number) => `172.${16 + ((n >> 8) & 15)}.${n & 255}.${10 + (n % 200)}`;
  const poolPlayer = () => rnd.weighted(cumulative);
  const at = (from: number, to: number) => Math.floor(from + rnd.next() * (to - from));
  const special: Scheduled[] = [];
  const used = new Set<number>();
  const pickUnused = (ok: (i: number) => boolean, from = ELITE, to = Math.min(pool, 200)) => {
    for (let tries = 0; tries < 10_000; tries++) {
      const i = rnd.int(from, to - 1);
      if (!used.has(i) && ok(i)) {
        used.add(i);
        return i;
      }
    }
    throw new Error('the pool is too small for the planted pairs');
  };
  /** Two unused players of the active part of the pool, the second chosen for the first. */
  const pickPair = (okA: (i: number) => boolean, okB: (a: number, i: number) => boolean) => {
    const active = Math.min(pool, 200);
    for (let tries = 0; tries < 1000; tries++) {
      const a = rnd.int(ELITE, active - 1);
      if (used.has(a) || !okA(a)) continue;
      const choices: number[] = [];
      for (let i = ELITE; i < active; i++)
        if (i !== a && !used.has(i) && okB(a, i)) choices.push(i);
      if (choices.length === 0) continue;
      const b = rnd.pick(choices);
      used.add(a);
      used.add(b);
      return [a, b] as const;
    }
    throw new Error('the pool is too small for the look-alikes');
  };
  for (let i = 0; i < ELITE; i++) used.add(i);
  // The strongest regular outside the elite slumps halfway (an honest change of strength).
  let slumping = ELITE;
  for (let i = ELITE; i < 30; i++) if (strengths[i]! > strengths[slumping]!) slumping = i;
  used.add(slumping);
  const slumpAt = start + span / 2;
  const strengthAt = (i: number, when: number) =>
    strengths[i]! - (i === slumping && when >= slumpAt ? SLUMP : 0);

  // Planted pairs.
  const planted: PlantedTruth['planted'][number][] = [];
  const count = options.planted ?? 12;
  let fresh = 0;
  for (let k = 0; k < count; k++) {
    const beneficiary = pickUnused(() => true, ELITE, Math.min(pool, 120));
    const sameNetwork = k % 3 === 0;
    const t0 = at(start + 0.1 * span, start + 0.6 * span);
    const thrown = rnd.int(18, 40);
    const runEnd = Math.min(start + span, t0 + rnd.int(5, 25) * DAY);
    let feeder: number;
    let kind: PlantedKind;
    if (k % 2 === 0) {
      kind = 'new-account';
      const address = sameNetwork
        ? ip[beneficiary]!.replace(/\.\d+$/, `.${250 - k}`)
        : newAddress(fresh++);
      feeder = addPlayer(strengths[beneficiary]! + rnd.int(-50, 150), address);
      const honest = rnd.int(25, 60);
      for (let g = 0; g < honest; g++)
        special.push({
          at: at(t0 - 2 * DAY, start + span),
          a: feeder,
          b: poolPlayer(),
          aWins: null,
        });
    } else {
      kind = 'regular';
      feeder = pickUnused(
        (i) => strengths[i]! >= strengths[beneficiary]! - 50,
        ELITE,
        Math.min(pool, 150),
      );
      if (sameNetwork) ip[feeder] = ip[beneficiary]!.replace(/\.\d+$/, `.${250 - k}`);
      const before = rnd.int(0, 8);
      for (let g = 0; g < before; g++)
        special.push({ at: at(start, t0), a: beneficiary, b: feeder, aWins: null });
    }
    for (let g = 0; g < thrown; g++)
      special.push({
        at: at(t0, runEnd),
        a: beneficiary,
        b: feeder,
        aWins: rnd.chance(0.95) ? 1 : 0,
      });
    planted.push({ beneficiary: id(beneficiary), feeder: id(feeder), kind, sameNetwork });
  }

  // Honest look-alikes.
  const lookAlikes: PlantedTruth['lookAlikes'][number][] = [];
  for (let k = 0; k < 6; k++) {
    const [a, b] = pickPair(
      () => true,
      (x, i) => Math.abs(strengths[i]! - strengths[x]!) <= 60,
    );
    const games = rnd.int(40, 120);
    for (let g = 0; g < games; g++)
      special.push({ at: at(start, start + span), a, b, aWins: null });
    lookAlikes.push({ players: [id(a), id(b)], kind: 'friends' });
  }
  for (let k = 0; k < 6; k++) {
    const [a, b] = pickPair(
      (i) => strengths[i]! >= 150,
      (x, i) => strengths[x]! - strengths[i]! >= 300 && strengths[x]! - strengths[i]! <= 550,
    );
    const games = rnd.int(20, 50);
    for (let g = 0; g < games; g++)
      special.push({ at: at(start, start + span), a, b, aWins: null });
    lookAlikes.push({ players: [id(a), id(b)], kind: 'rivals' });
  }
  for (let t = 0; t < 2; t++) {
    const teacher = pickUnused((i) => strengths[i]! >= 250);
    const students = rnd.int(3, 5);
    for (let s = 0; s < students; s++) {
      const student = addPlayer(rnd.int(-400, -200), newAddress(fresh++));
      const t0 = at(start, start + 0.7 * span);
      const lessons = rnd.int(20, 40);
      for (let g = 0; g < lessons; g++)
        special.push({ at: at(t0, start + span), a: teacher, b: student, aWins: null });
      const outside = rnd.int(3, 8);
      for (let g = 0; g < outside; g++)
        special.push({ at: at(t0, start + span), a: student, b: poolPlayer(), aWins: null });
      lookAlikes.push({ players: [id(teacher), id(student)], kind: 'teacher' });
    }
  }
  // The elite meet each other in 3% of the games, on top of what their activity gives them.
  const eliteGames = Math.floor(options.events * 0.03);
  for (let g = 0; g < eliteGames; g++) {
    const a = rnd.int(0, ELITE - 1);
    let b = rnd.int(0, ELITE - 2);
    if (b >= a) b++;
    special.push({ at: at(start, start + span), a, b, aWins: null });
  }
  for (let a = 0; a < ELITE; a++)
    for (let b = a + 1; b < ELITE; b++) lookAlikes.push({ players: [id(a), id(b)], kind: 'elite' });
  special.sort((x, y) => x.at - y.at);

  const truth: PlantedTruth = {
    ladder: ladderId,
    planted,
    lookAlikes,
    slumping: id(slumping),
    strengths: Object.fromEntries(strengths.map((s, i) => [id(i), s])),
  };
  const calendar = new PeriodCalendar(ladder.timezone);
  const total = Math.max(options.events, special.length);
  const baseGames = total - special.length;

  function* lines(): Generator<string> {
    const draw = new SeededRandom((options.seed ^ 0x7f4a7c15) >>> 0);
    let serial = 0;
    let next = 0;
    const emit = (game: Scheduled): string => {
      const p = winChance(strengthAt(game.a, game.at), strengthAt(game.b, game.at));
      const aScore = game.aWins ?? (draw.chance(0.08) ? 0.5 : draw.chance(p) ? 1 : 0);
      const result = (s: number) => (s === 1 ? 'win' : s === 0 ? 'loss' : 'draw');
      const event: GameFinished = {
        id: `w${options.seed.toString(36)}-${(serial++).toString(36)}`,
        type: 'game.finished',
        ladder: ladderId,
        gameId: `${ladderId}-w${serial}`,
        finishedAt: calendar.iso(game.at),
        moves: draw.int(15, 120),
        reason: aScore === 0.5 ? 'agreed' : 'five',
        players: [
          { id: id(game.a), result: result(aScore), side: 'black', first: true, ip: ip[game.a]! },
          {
            id: id(game.b),
            result: result(1 - aScore),
            side: 'white',
            first: false,
            ip: ip[game.b]!,
          },
        ],
      };
      return JSON.stringify(event);
    };
    for (let g = 0; g < baseGames; g++) {
      const when = start + Math.floor((g / baseGames) * span) + draw.int(0, 59) * 1000;
      while (next < special.length && special[next]!.at <= when) yield emit(special[next++]!);
      const a = draw.weighted(cumulative);
      let b = draw.weighted(cumulative);
      while (b === a) b = draw.weighted(cumulative);
      yield emit({ at: when, a, b, aWins: null });
    }
    while (next < special.length) yield emit(special[next++]!);
  }
  return { truth, lines };
}
