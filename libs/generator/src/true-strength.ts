import { SeededRandom } from './seeded-random.js';

/**
 * Simulated players' true strengths, on the Elo scale: a player `d` points stronger wins a
 * decisive game with probability 1 / (1 + 10^(−d/400)) (Bradley-Terry). The generator draws
 * results from them when asked to (`strengthSpread`), and a benchmark compares the ratings
 * folded from the stream with them (bench/skill-quality.bench.ts).
 */

/** The logistic scale of the Elo curve, in strength points: 400 / ln 10. */
const LOGISTIC_SCALE = 400 / Math.LN10;

/** The chance that a side of strength `a` beats one of strength `b` in a decisive game. */
export const winChance = (a: number, b: number): number => 1 / (1 + 10 ** ((b - a) / 400));

/**
 * Strengths of a ladder's pool, one per player index: normal around 0 with standard deviation
 * `spread`, rounded to a tenth (what the truth file holds is what the draws used). Drawn from
 * their own random stream (the seed and the ladder's position), so that the event stream's own
 * draws are the same whatever the spread.
 */
export function poolStrengths(
  seed: number,
  ladder: number,
  players: number,
  spread: number,
): Float64Array {
  const rnd = new SeededRandom(
    (Math.imul(seed ^ 0x5bd1e995, 0x2c1b3c6d) + ladder * 0x9e3779b9) >>> 0,
  );
  const strengths = new Float64Array(players);
  for (let i = 0; i < players; i++) {
    const strength = Math.round(spread * normal(rnd) * 10) / 10;
    // No negative zero: the truth file and the tests read plain numbers.
    strengths[i] = strength === 0 ? 0 : strength;
  }
  return strengths;
}

/** A standard normal draw (Box-Muller). */
function normal(rnd: SeededRandom): number {
  const u = 1 - rnd.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.next());
}

/**
 * A strength as one game shows it: the strength plus Gumbel noise of the Elo curve's scale, so
 * that ordering players by it ranks them as Plackett-Luce on their strengths would (and two of
 * them one against the other as `winChance`).
 */
export function performance(strength: number, rnd: SeededRandom): number {
  // Uniform in (0, 1), both ends excluded: half a step of the generator off each.
  const u = rnd.next() + 2 ** -33;
  return strength - LOGISTIC_SCALE * Math.log(-Math.log(u));
}
