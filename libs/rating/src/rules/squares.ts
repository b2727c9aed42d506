import { type GameResult, type PlayerReport, reject } from '@ranking/contracts';
import { rated } from '../effect.js';
import type { GameInput, GameScore, RuleSet } from '../rule-set.js';
import { headToHead, teamsBy } from '../skill-match.js';
import { missingResult } from '../two-player-results.js';
import { SQUARES_PARAMS, type SquaresParams } from './squares-params.js';

const inconsistent = (detail: string): GameScore => ({
  kind: 'rejected',
  rejection: reject('inconsistent-result', detail),
});

/** Teams of a 4-player game: two teams of two, or a reason they are not. */
function teamsOf(players: readonly PlayerReport[]): string | null {
  const sizes = new Map<string, number>();
  for (const p of players) sizes.set(p.team!, (sizes.get(p.team!) ?? 0) + 1);
  return sizes.size === 2 && [...sizes.values()].every((n) => n === 2)
    ? null
    : 'four players must form two teams of two';
}

function score({ players, ladder }: GameInput<SquaresParams>): GameScore {
  const params = ladder.params;
  const teamOf = (p: PlayerReport, i: number) => (players.length === 4 ? p.team! : String(i));
  const resultByTeam = new Map<string, GameResult>();
  for (const [i, p] of players.entries()) {
    const seen = resultByTeam.get(teamOf(p, i));
    if (seen !== undefined && seen !== p.result)
      return inconsistent('teammates must share a result');
    resultByTeam.set(teamOf(p, i), p.result!);
  }
  const results = [...resultByTeam.values()].sort().join(',');
  if (results !== 'loss,win' && results !== 'draw,draw') {
    return inconsistent(`team results ${results} do not fit one game`);
  }
  const winners = players.filter((p) => p.result === 'win');
  const losers = players.filter((p) => p.result === 'loss');
  const mostWinner = Math.max(...winners.map((p) => p.remaining!));
  const fewestLoser = Math.min(...losers.map((p) => p.remaining!));
  if (winners.length > 0 && mostWinner > fewestLoser) {
    return inconsistent('a winner has more remaining squares than a loser');
  }
  const cleared = winners.some((p) => p.remaining === 0);
  const teamWin = cleared ? params.teamPerfectPoints : params.teamPoints;
  const share = players.length === 4 ? teamWin / 2 : params.winPoints;
  const effects = players.map((p) => {
    const remaining = p.remaining!;
    const perfect = p.perfect === true;
    const base =
      p.result === 'win'
        ? share
        : p.result === 'loss'
          ? -(cleared ? remaining : Math.ceil(remaining / 2))
          : 0;
    const why = {
      kind: 'squares' as const,
      remaining,
      winnerCleared: cleared,
      perfect,
      ...(players.length === 4 && p.result === 'win' ? { teamShare: share } : {}),
    };
    return rated(p.result!, base + (perfect ? params.perfectBonus : 0), why);
  });
  return { kind: 'scored', effects };
}

/** QQ 方格 (seed 001): fewest remaining squares wins; the loser pays by what is left. */
export const squares: RuleSet = {
  name: 'squares',
  params: SQUARES_PARAMS,
  reportFields: ['result', 'remaining', 'perfect', 'team'],
  playerCounts: [2, 4],
  // Two players one versus one; four as their two teams.
  skillMatch: (players, effects) =>
    players.length === 4 ? teamsBy(players, effects, (p) => p.team!) : headToHead(players, effects),
  closes: [],
  penalties: { floor: () => null },
  disconnects: () => null,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields(players) {
    const missing = missingResult(players);
    if (missing) return missing;
    const noRemaining = players.findIndex((p) => p.remaining === undefined);
    if (noRemaining >= 0) return `/players/${noRemaining}/remaining is required`;
    if (players.length === 4) {
      const noTeam = players.findIndex((p) => p.team === undefined);
      if (noTeam >= 0) return `/players/${noTeam}/team is required with four players`;
      return teamsOf(players);
    }
    return null;
  },
  score,
  outputFields: () => ({}),
};
