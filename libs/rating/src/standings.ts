import type { LadderConfig } from './ladder-config.js';
import type { LadderFold } from './ladder-fold.js';
import { type PlayerState, XINBO_START_LEVEL } from './player-state.js';
import type { RuleSet } from './rule-set.js';
import type { SkillBook } from './skill-book.js';

/** One player's line in the contract's output: shared fields, then the rule set's own. */
export type PlayerStanding = Record<
  string,
  number | string | boolean | { mu: number; sigma: number }
>;

export const isRanked = (player: PlayerState, ladder: LadderConfig): boolean =>
  ladder.rankedAfter !== null && player.ratedGames >= ladder.rankedAfter;

/**
 * A player still in the default state may be left out of the output (CONTRACT.md). Rated games
 * count too: a player whose games were all annulled has none in the record, but still has them
 * as rated games (and may be ranked).
 */
export const isDefaultState = (player: PlayerState, ladder: LadderConfig): boolean =>
  player.games === 0 &&
  player.ratedGames === 0 &&
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

/** A player's skill estimate as the output gives it (the prior for one it never counted). */
const skillOutput = (book: SkillBook, id: string): { mu: number; sigma: number } => {
  const { mu, sigma } = book.skillOf(id);
  return { mu, sigma };
};

/** Code-unit order, the same in every locale, so the output is byte-for-byte repeatable. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The contract's output for some ladders, as chunks of JSON text (one player a line): ladders
 * and players in code-unit order, players still in the default state left out.
 */
export function* renderStandings(
  folds: readonly (Pick<LadderFold, 'ladder' | 'rules' | 'players'> & {
    readonly skill?: SkillBook | null;
  })[],
  rejected: readonly { readonly id: string | null; readonly reason: string }[],
  voided: readonly { readonly id: string | null; readonly reason: string }[],
): Generator<string> {
  yield '{"ladders":{';
  const sorted = [...folds].sort((a, b) => byCodeUnit(a.ladder.id, b.ladder.id));
  for (const [n, fold] of sorted.entries()) {
    yield `${n === 0 ? '' : ','}\n${JSON.stringify(fold.ladder.id)}:{"players":{`;
    const players = [...fold.players.values()]
      .filter((p) => !isDefaultState(p, fold.ladder))
      .sort((a, b) => byCodeUnit(a.id, b.id));
    const skill = fold.skill ?? null;
    for (const [i, p] of players.entries()) {
      const standing = standingOf(p, fold.ladder, fold.rules);
      const line = skill === null ? standing : { ...standing, skill: skillOutput(skill, p.id) };
      yield `${i === 0 ? '' : ','}\n${JSON.stringify(p.id)}:${JSON.stringify(line)}`;
    }
    yield '}}';
  }
  yield `},\n"rejected":${JSON.stringify(rejected)},\n"void":${JSON.stringify(voided)}}\n`;
}
