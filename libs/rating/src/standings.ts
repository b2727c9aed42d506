import type { LadderConfig } from './ladder-config.js';
import { type PlayerState, XINBO_START_LEVEL } from './player-state.js';
import type { RuleSet } from './rule-set.js';

/** One player's line in the contract's output: shared fields, then the rule set's own. */
export type PlayerStanding = Record<string, number | string | boolean>;

export const isRanked = (player: PlayerState, ladder: LadderConfig): boolean =>
  ladder.rankedAfter !== null && player.ratedGames >= ladder.rankedAfter;

/** A player still in the default state may be left out of the output (CONTRACT.md). */
export const isDefaultState = (player: PlayerState, ladder: LadderConfig): boolean =>
  player.games === 0 &&
  player.rating === ladder.startRating &&
  player.disconnects === 0 &&
  player.captures === 0 &&
  player.level === XINBO_START_LEVEL;

export function standingOf(
  player: PlayerState,
  ladder: LadderConfig,
  rules: RuleSet,
): PlayerStanding {
  return {
    ...(rules.keepsRating ? { rating: player.rating } : {}),
    games: player.games,
    wins: player.wins,
    losses: player.losses,
    draws: player.draws,
    ranked: isRanked(player, ladder),
    ...rules.outputFields(player),
  };
}

/** Code-unit order, the same in every locale, so the output is byte-for-byte repeatable. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
