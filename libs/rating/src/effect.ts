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
  | { kind: 'penalty'; reason: string; points: number; floor: number | null }
  | { kind: 'level'; from: number; to: number; stage: 'capture' | 'territory' }
  | { kind: 'correction'; gameId: string; void: boolean };

/** A game's effect on one player. Corrections apply (new effect − current effect). */
export interface PlayerEffect {
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly rated: number;
  /** Valid captures credited (xinbo capture stage). */
  readonly captures: number;
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
