import type { GameResult } from '@ranking/contracts';

/** Why a player's rating moved (or did not): what the rating history shows. */
export type Why =
  | {
      kind: 'elo';
      k: number;
      expected: number;
      score: number;
      rescale?: { boundary: number; factor: number };
    }
  | { kind: 'qq-points'; gap: number; bracket: 'near' | 'far' }
  | { kind: 'gate'; gate: string }
  | { kind: 'record-only' }
  | { kind: 'wrong-kind'; stage: 'capture' | 'territory' }
  | { kind: 'bracket'; levels: string; result: GameResult }
  | { kind: 'captures'; reported: number; credited: number; valid: number }
  | {
      kind: 'squares';
      remaining: number;
      winnerCleared: boolean;
      perfect: boolean;
      teamShare?: number;
    }
  | { kind: 'card-points'; card: number; teamTotal?: number; place?: number; doubled: boolean }
  | {
      kind: 'penalty';
      reason: string;
      points: number;
      floor: number | null;
      /** A quota penalty: the games the period counted, and the quota they fell short of. */
      played?: number;
      quota?: number;
    }
  | { kind: 'level'; from: number; to: number; stage: 'capture' | 'territory' }
  | { kind: 'correction'; gameId: string; void: boolean }
  /** An annulment re-folded the ladder: `since` in epoch ms. */
  | { kind: 'annulment'; player: string; since: number };

/** What a game adds to a player's counters. Corrections apply (new − current). */
export interface EffectCounts {
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly rated: number;
  /** Valid captures credited (xinbo capture stage). */
  readonly captures: number;
}

/** A game's effect on one player, with its result and why. */
export interface PlayerEffect extends EffectCounts {
  readonly result: GameResult | null;
  readonly why: Why;
}

export const NO_EFFECT: PlayerEffect = {
  rating: 0,
  games: 0,
  wins: 0,
  losses: 0,
  draws: 0,
  rated: 0,
  captures: 0,
  result: null,
  why: { kind: 'record-only' },
};

/**
 * Builds an effect. Every effect is made here with its fields in one order, so the engine sees
 * one object shape (the fold runs this twice per game; shapes that vary make it several times slower).
 */
function effect(
  result: GameResult,
  rating: number,
  rated: number,
  captures: number,
  why: Why,
): PlayerEffect {
  return {
    rating,
    games: 1,
    wins: result === 'win' ? 1 : 0,
    losses: result === 'loss' ? 1 : 0,
    draws: result === 'draw' ? 1 : 0,
    rated,
    captures,
    result,
    why,
  };
}

/** A rated game: counts in the record and may move the rating. */
export const rated = (result: GameResult, rating: number, why: Why, captures = 0): PlayerEffect =>
  effect(result, rating, 1, captures, why);

/** Counts in W/L/D, moves no rating. */
export const resultOnly = (result: GameResult, why: Why): PlayerEffect =>
  effect(result, 0, 0, 0, why);

/**
 * A game's effects packed as numbers, three per player (rating delta, captures, flags): the
 * form a game record keeps for later corrections, about a quarter of the objects' size.
 */
export type PackedEffects = readonly number[];

const GAME = 1;
const WIN = 2;
const LOSS = 4;
const DRAW = 8;
const RATED = 16;

/** A game's counts as one number of flags (the rating delta and captures are kept apart). */
export const packEffectFlags = (e: EffectCounts): number =>
  (e.games ? GAME : 0) |
  (e.wins ? WIN : 0) |
  (e.losses ? LOSS : 0) |
  (e.draws ? DRAW : 0) |
  (e.rated ? RATED : 0);

export const unpackEffectFlags = (
  flags: number,
): Pick<EffectCounts, 'games' | 'wins' | 'losses' | 'draws' | 'rated'> => ({
  games: flags & GAME ? 1 : 0,
  wins: flags & WIN ? 1 : 0,
  losses: flags & LOSS ? 1 : 0,
  draws: flags & DRAW ? 1 : 0,
  rated: flags & RATED ? 1 : 0,
});

export function unpackEffect(packed: PackedEffects, index: number): EffectCounts {
  const flags = unpackEffectFlags(packed[index * 3 + 2] ?? 0);
  return {
    rating: packed[index * 3] ?? 0,
    games: flags.games,
    wins: flags.wins,
    losses: flags.losses,
    draws: flags.draws,
    rated: flags.rated,
    captures: packed[index * 3 + 1] ?? 0,
  };
}
