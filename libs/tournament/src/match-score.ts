// One match of a round robin: up to 4 games, over as soon as a player has 3 game wins
// (seed 000 rule 3); later games do not count. A no-show is a 0:3 loss (rule 9).

export const WINS_TO_END = 3;
export const MAX_GAMES = 4;

export interface MatchGame {
  readonly gameId: string;
  readonly winner: string | null;
  readonly noShow: boolean;
}

export type MatchStatus = 'scheduled' | 'playing' | 'finished';

/** Why a reported game is not part of the score. */
export type UncountedReason = 'after-end' | 'replaced-by-no-show';

export interface MatchScore {
  readonly status: MatchStatus;
  /** Game wins of players[0] and players[1]. */
  readonly wins: readonly [number, number];
  /** The match winner; null while not finished or for a draw. */
  readonly winner: string | null;
  /** The player who did not appear, when a no-show decided the match. */
  readonly noShow: string | null;
  readonly counted: readonly string[];
  readonly uncounted: readonly { readonly gameId: string; readonly why: UncountedReason }[];
}

/**
 * Scores a match from its games in log order (void games already left out).
 * **Decision**: a drawn game counts as a game played, so 4 games always end the match (2:2,
 * 2:1 with a draw, …); the player with more game wins wins the match, equal wins draw it. A
 * no-show before the match is decided awards it 3:0 and replaces the games played so far.
 */
export function scoreMatch(
  players: readonly [string, string],
  games: readonly MatchGame[],
): MatchScore {
  const wins: [number, number] = [0, 0];
  let counted: string[] = [];
  const uncounted: { gameId: string; why: UncountedReason }[] = [];
  let noShow: string | null = null;
  let over = false;
  for (const game of games) {
    if (over) {
      uncounted.push({ gameId: game.gameId, why: 'after-end' });
      continue;
    }
    const side = game.winner === players[0] ? 0 : game.winner === players[1] ? 1 : null;
    if (game.noShow && side !== null) {
      for (const id of counted) uncounted.push({ gameId: id, why: 'replaced-by-no-show' });
      counted = [game.gameId];
      wins[side] = WINS_TO_END;
      wins[1 - side] = 0;
      noShow = players[1 - side]!;
      over = true;
      continue;
    }
    counted.push(game.gameId);
    if (side !== null) wins[side] += 1;
    over = wins[0] >= WINS_TO_END || wins[1] >= WINS_TO_END || counted.length >= MAX_GAMES;
  }
  const winner = !over || wins[0] === wins[1] ? null : players[wins[0] > wins[1] ? 0 : 1];
  return {
    status: over ? 'finished' : counted.length > 0 ? 'playing' : 'scheduled',
    wins,
    winner,
    noShow,
    counted,
    uncounted,
  };
}
