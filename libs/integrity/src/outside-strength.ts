import type { JudgedDuel } from './duel.js';

/** The Elo curve's logistic scale: 400 / ln 10 strength points. */
export const ELO_SCALE = 400 / Math.LN10;

/** The chance that strength `a` beats strength `b` (Bradley-Terry on the Elo scale). */
export const expectedScore = (a: number, b: number): number => 1 / (1 + 10 ** ((b - a) / 400));

/**
 * How many games a one-sided estimate remembers: Elo forgets at its K, so it never knows a
 * player better than from about this many games (and follows a player whose strength changes).
 */
const MEMORY = 40;

/** Games' worth of the population's mean every estimate starts from (a shrinkage prior). */
export const PRIOR_GAMES = 10;

/**
 * The spread of a strength known from one game: 2 × the Elo scale in theory (a game at even
 * odds carries a quarter of a unit of information), 1.5 × as measured: on planted streams the
 * estimates' error against the true strengths, on the estimates' own scale, is three quarters
 * of the theory's (draws and Elo's steady K make them smoother than one-shot estimates).
 */
const ONE_GAME_SPREAD = 1.5 * ELO_SCALE;

/** A player's strength at one moment, from games not against the one opponent in question. */
export interface Strength {
  /** On the Elo scale around the ladder's mean (0), shrunk toward it by how little is known. */
  readonly rating: number;
  /** Its standard error, in the same points. */
  readonly error: number;
  /** Games the estimate rests on: before and after this moment, each capped at MEMORY. */
  readonly games: number;
}

/** K of a one-sided estimate after `n` games: a running mean at first, then Elo's 16. */
const kFactor = (n: number): number => Math.max(16, Math.min(80, 800 / (n + 10)));

/**
 * Each player's strength at each game, judged only from the games that are not held out (the
 * suspected pairs' own), and over time: an Elo pass forward (what the games before say) and one
 * backward (what the games after say), combined by how many games each rests on. A player's
 * strength can change, so each side forgets at Elo's K; an account that plays the held-out
 * opponent more than anyone else is known only from its other games. Draws say nothing of who
 * is stronger here (decisive games only, as Bradley-Terry).
 */
export class OutsideStrength {
  private readonly index = new Map<string, number>();
  /** For each game: both players' forward rating and count, then both players' backward. */
  private readonly states: Float64Array;
  /** The rating scale's correction (see `scale`), once computed. */
  private fitted: number | null = null;

  /** `duels`: the ladder's games in time order; `heldOut[i]`: never learnt from. */
  constructor(
    private readonly duels: readonly JudgedDuel[],
    private readonly heldOut: readonly boolean[],
  ) {
    for (const d of duels)
      for (const s of d.sides)
        if (!this.index.has(s.player)) this.index.set(s.player, this.index.size);
    this.states = new Float64Array(duels.length * 8);
    this.pass(false);
    this.pass(true);
  }

  private pass(reverse: boolean): void {
    const players = this.index.size;
    const rating = new Float64Array(players);
    const count = new Float64Array(players);
    const n = this.duels.length;
    const offset = reverse ? 4 : 0;
    for (let step = 0; step < n; step++) {
      const i = reverse ? n - 1 - step : step;
      const duel = this.duels[i]!;
      const a = this.index.get(duel.sides[0].player)!;
      const b = this.index.get(duel.sides[1].player)!;
      this.states.set([rating[a]!, count[a]!, rating[b]!, count[b]!], i * 8 + offset);
      if (this.heldOut[i] || duel.sides[0].score === 0.5) continue;
      const surprise = duel.sides[0].score - expectedScore(rating[a]!, rating[b]!);
      rating[a] = rating[a]! + kFactor(count[a]!) * surprise;
      rating[b] = rating[b]! - kFactor(count[b]!) * surprise;
      count[a] = count[a]! + 1;
      count[b] = count[b]! + 1;
    }
  }

  /** Both players' strengths at game `i` (neither side of the estimate includes game i). */
  at(i: number): readonly [Strength, Strength] {
    return [this.combine(i, 0), this.combine(i, 2)];
  }

  /**
   * The factor by which a difference of these ratings is to be stretched to predict a game:
   * fitted (maximum likelihood, one parameter) on the decisive games not held out. Elo's ratings
   * come out compressed, most between players far apart (a steady K, opponents mostly weaker),
   * so that a strong player's lopsided record against a weak one would look suspicious.
   */
  scale(): number {
    if (this.fitted !== null) return this.fitted;
    const deltas: number[] = [];
    const outcomes: number[] = [];
    this.duels.forEach((duel, i) => {
      if (this.heldOut[i] || duel.sides[0].score === 0.5) return;
      const [a, b] = this.at(i);
      if (a.games < MEMORY / 2 || b.games < MEMORY / 2) return;
      deltas.push(((a.rating - b.rating) * Math.LN10) / 400);
      outcomes.push(duel.sides[0].score);
    });
    let beta = 1;
    for (let iteration = 0; iteration < 20 && deltas.length > 0; iteration++) {
      let gradient = 0;
      let curvature = 0;
      for (let k = 0; k < deltas.length; k++) {
        const p = 1 / (1 + Math.exp(-beta * deltas[k]!));
        gradient += (outcomes[k]! - p) * deltas[k]!;
        curvature += p * (1 - p) * deltas[k]! * deltas[k]!;
      }
      if (curvature === 0) break;
      const step = gradient / curvature;
      beta = Math.min(3, Math.max(0.5, beta + step));
      if (Math.abs(step) < 1e-6) break;
    }
    return (this.fitted = beta);
  }

  private combine(i: number, player: number): Strength {
    const f = this.states;
    const wf = Math.min(MEMORY, f[i * 8 + player + 1]!);
    const wb = Math.min(MEMORY, f[i * 8 + 4 + player + 1]!);
    const games = wf + wb;
    const raw = games === 0 ? 0 : (wf * f[i * 8 + player]! + wb * f[i * 8 + 4 + player]!) / games;
    return {
      rating: (raw * games) / (games + PRIOR_GAMES),
      error: ONE_GAME_SPREAD / Math.sqrt(games + PRIOR_GAMES),
      games,
    };
  }
}
