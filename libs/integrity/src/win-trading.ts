import type { JudgedDuel } from './duel.js';
import { ELO_SCALE, expectedScore, OutsideStrength } from './outside-strength.js';
import { normalQuantile } from './normal-quantile.js';
import { honestRecordChance, type RunGame } from './record-tail.js';

/** The thresholds of the analysis (defaults: `WIN_TRADING_DEFAULTS`). */
export interface WinTradingOptions {
  /** Games a pair must have played, from `since` on, to be judged. */
  readonly minGames: number;
  /** The share of the points the beneficiary must have taken from `since` on. */
  readonly minShare: number;
  /**
   * How many honest pairs, of all those judged in the ladder, may be expected to look at least
   * as extreme as a flagged one (the chance of its record from honest play × pairs judged): a
   * fixed threshold on the chance alone would flag more honest pairs the larger the ladder.
   */
  readonly maxExpectedHonest: number;
  /** The largest chance from honest play a flagged record may have, however few pairs are judged. */
  readonly maxChance: number;
}

export const WIN_TRADING_DEFAULTS: WinTradingOptions = {
  minGames: 12,
  minShare: 0.75,
  maxExpectedHonest: 1,
  maxChance: 0.001,
};

/** A pair whose results against each other are not what their strengths say. */
export interface Suspect {
  /** Beneficiary first, then feeder. */
  readonly players: readonly [string, string];
  /** 1 − the chance of a record at least this good from honest play (honestRecordChance). */
  readonly score: number;
  readonly z: number;
  /** Honest pairs of the ladder expected to look at least this extreme by chance. */
  readonly expectedHonest: number;
  /** Games of the pair from `since` on, the beneficiary's points among them, and their expectation. */
  readonly games: number;
  readonly won: number;
  readonly expected: number;
  /** The first game of the suspicious run (finishedAt as the event wrote it). */
  readonly since: string;
  readonly evidence: readonly string[];
}

interface PairGame {
  /** The game's place in the ladder's games, in time order. */
  readonly at: number;
  readonly duel: JudgedDuel;
}

interface Pair {
  readonly games: PairGame[];
  /** Points of the player whose id sorts first. */
  firstPoints: number;
}

interface PlayerTotals {
  games: number;
  points: number;
  firstAt: number;
  firstFinishedAt: string;
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** The pairs worth judging: enough games against each other and a lopsided record. */
function candidatePairs(duels: readonly JudgedDuel[], options: WinTradingOptions): Set<string> {
  const counts = new Map<string, { games: number; first: number }>();
  for (const d of duels) {
    const [a, b] = d.sides;
    const key = pairKey(a.player, b.player);
    const c = counts.get(key) ?? { games: 0, first: 0 };
    c.games++;
    c.first += a.player < b.player ? a.score : b.score;
    counts.set(key, c);
  }
  const out = new Set<string>();
  for (const [key, c] of counts) {
    const share = Math.max(c.first, c.games - c.first) / c.games;
    // A run within the record may be lopsided even if the whole is less so (a regular who
    // starts throwing games): any pair with the games and a leaning record is looked at.
    if (c.games >= options.minGames && share >= 0.6) out.add(key);
  }
  return out;
}

/** The player of the pair who took more of the points (the first by id on a tie). */
function leaderOf(key: string, pair: Pair): string {
  const [first, second] = key.split('\u0000') as [string, string];
  return pair.firstPoints * 2 >= pair.games.length ? first : second;
}

const points = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

const sameNetwork = (a: string | null, b: string | null): boolean => {
  if (a === null || b === null) return false;
  const na = /^(\d+\.\d+\.\d+)\.\d+$/.exec(a);
  const nb = /^(\d+\.\d+\.\d+)\.\d+$/.exec(b);
  return na !== null && nb !== null && na[1] === nb[1];
};

/** How recent an account must be, at the suspicious run's start, to be called new. */
const NEW_ACCOUNT_MS = 30 * 86_400_000;

/**
 * Win-trading in one ladder's two-player games: the pairs whose results against each other are
 * not what the players' strengths say, strongest evidence first. Each player's strength is
 * judged without the suspected pairs' own games (else a feeder's losses make it look weak and
 * its losses honest) and over time (OutsideStrength). For each pair, the statistic is the
 * beneficiary's points from a start `since` on (the start that makes the run most extreme,
 * so a regular who starts throwing games is found from then) against their expectation:
 *
 *   z = (won − expected) / √(Σ p(1−p) + (Σ p(1−p)·σ / ELO_SCALE)²)
 *
 * where p is each game's expected score and σ the error of the two strengths at that game. The
 * second term is what makes an unknown player safe: a pupil known from few other games could
 * be much weaker than thought, and all its games against one teacher would lean the same way.
 */
export function winTradingSuspects(
  ladderDuels: readonly JudgedDuel[],
  options: WinTradingOptions = WIN_TRADING_DEFAULTS,
): Suspect[] {
  const duels = [...ladderDuels].sort((x, y) => x.at - y.at);
  const candidates = candidatePairs(duels, options);
  const heldOut = duels.map((d) => candidates.has(pairKey(d.sides[0].player, d.sides[1].player)));
  const strength = new OutsideStrength(duels, heldOut);

  const pairs = new Map<string, Pair>();
  const totals = new Map<string, PlayerTotals>();
  duels.forEach((duel, i) => {
    for (const s of duel.sides) {
      const t = totals.get(s.player);
      if (t) {
        t.games++;
        t.points += s.score;
      } else
        totals.set(s.player, {
          games: 1,
          points: s.score,
          firstAt: duel.at,
          firstFinishedAt: duel.finishedAt,
        });
    }
    if (!heldOut[i]) return;
    const [a, b] = duel.sides;
    const key = pairKey(a.player, b.player);
    let pair = pairs.get(key);
    if (!pair) pairs.set(key, (pair = { games: [], firstPoints: 0 }));
    pair.games.push({ at: i, duel });
    pair.firstPoints += a.player < b.player ? a.score : b.score;
  });

  const suspects: Suspect[] = [];
  const runs = new Map<string, Run>();
  for (const [key, pair] of pairs) {
    const run = mostExtremeRun(pair.games, leaderOf(key, pair), strength, options);
    if (run !== null) runs.set(key, run);
  }
  // Every pair with a run of the games and share asked was judged (the multiple-test count).
  const judged = runs.size;
  // Only a run far enough out to matter is worth its exact chance (the approximation is cheap).
  const maxChance = Math.min(options.maxChance, options.maxExpectedHonest / Math.max(1, judged));
  const cut = -normalQuantile(maxChance) - 1;
  for (const [key, pair] of pairs) {
    const run = runs.get(key);
    const beneficiary = leaderOf(key, pair);
    const feeder = key.split('\u0000').find((p) => p !== beneficiary)!;
    // The approximation picks the run; its exact chance decides.
    if (run === undefined || run.z < cut) continue;
    const chance = honestRecordChance(run.runGames, run.won);
    const expectedHonest = chance * judged;
    if (chance > maxChance) continue;
    const z = -normalQuantile(chance);
    const start = pair.games[run.from]!.duel;
    const runGames = pair.games.slice(run.from);
    const pairPoints = (player: string) =>
      pair.games.reduce((sum, g) => sum + g.duel.sides.find((s) => s.player === player)!.score, 0);
    const others = (player: string) => {
      const t = totals.get(player)!;
      return `${player}'s other games: ${t.games - pair.games.length}, won ${points(t.points - pairPoints(player))}`;
    };
    const evidence = [
      `${points(run.won)} of ${run.games} won against an expected ${run.expected.toFixed(1)}`,
      others(feeder),
      others(beneficiary),
    ];
    if (runGames.some((g) => sameNetwork(g.duel.sides[0].ip, g.duel.sides[1].ip)))
      evidence.push('same /24 network');
    const feederTotals = totals.get(feeder)!;
    if (start.at - feederTotals.firstAt <= NEW_ACCOUNT_MS)
      evidence.push(`${feeder}'s first game ${feederTotals.firstFinishedAt}`);
    suspects.push({
      players: [beneficiary, feeder],
      score: Math.round((1 - chance) * 1e4) / 1e4,
      z: Math.round(z * 100) / 100,
      expectedHonest: Number(expectedHonest.toPrecision(2)),
      games: run.games,
      won: run.won,
      expected: Math.round(run.expected * 10) / 10,
      since: start.finishedAt,
      evidence,
    });
  }
  return suspects.sort(
    (x, y) => y.z - x.z || (x.players.join('\u0000') < y.players.join('\u0000') ? -1 : 1),
  );
}

interface Run {
  readonly from: number;
  /** Its decisive games, for the exact chance. */
  readonly runGames: readonly RunGame[];
  readonly games: number;
  readonly won: number;
  readonly expected: number;
  readonly z: number;
}

/** The start from which the beneficiary's record is most extreme, with its figures. */
function mostExtremeRun(
  games: readonly PairGame[],
  beneficiary: string,
  strength: OutsideStrength,
  options: WinTradingOptions,
): Run | null {
  let won = 0;
  let expected = 0;
  let variance = 0;
  let sensitivity = 0;
  const scale = strength.scale();
  let best: Run | null = null;
  let decisive = 0;
  /** The run's games from the last back. */
  const runGames: RunGame[] = [];
  const total = games.filter((g) => g.duel.sides[0].score !== 0.5).length;
  for (let from = games.length - 1; from >= 0; from--) {
    const { at, duel } = games[from]!;
    // Draws are left out of the count, as out of the strengths: the record is of decisive games.
    if (duel.sides[0].score === 0.5) continue;
    const [sa, sb] = strength.at(at);
    const benFirst = duel.sides[0].player === beneficiary;
    const ben = benFirst ? sa : sb;
    const feed = benFirst ? sb : sa;
    const p = expectedScore(scale * ben.rating, scale * feed.rating);
    const spread = scale * Math.hypot(ben.error, feed.error);
    runGames.push({ gap: scale * (ben.rating - feed.rating), error: spread });
    won += duel.sides[benFirst ? 0 : 1].score;
    expected += p;
    variance += p * (1 - p);
    sensitivity += (p * (1 - p) * spread) / ELO_SCALE;
    decisive++;
    // A run is most of the pair's record: the longest pairs would otherwise always hold a lucky one.
    if (decisive < options.minGames || decisive * 2 < total || won / decisive < options.minShare)
      continue;
    const z = (won - expected) / Math.sqrt(variance + sensitivity * sensitivity);
    if (best === null || z > best.z) best = { from, runGames, games: decisive, won, expected, z };
  }
  // The best run's games are the first of those gathered from the last back.
  return best === null ? null : { ...best, runGames: runGames.slice(0, best.games) };
}
