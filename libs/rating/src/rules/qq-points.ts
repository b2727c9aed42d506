import { rated, resultOnly } from '../effect.js';
import type { GameInput, GameScore, RuleSet } from '../rule-set.js';
import { missingResult, twoPlayerResults } from '../two-player-results.js';
import { QQ_POINTS_PARAMS, type QqPointsParams } from './qq-points-params.js';
import { headToHead } from '../skill-match.js';

/** QQ gomoku title from points (seed 000's table). */
export function qqPointsTitle(points: number): string {
  if (points >= 100) return `${Math.min(9, Math.floor(points / 100))}段`;
  if (points >= 0) return '1级';
  return `${Math.min(9, 1 + Math.ceil(-points / 100))}级`;
}

/** Points moved by one game, seen from the first player (seeds 000/001; default numbers unless given). */
export function qqPointsDelta(
  self: number,
  opp: number,
  result: 'win' | 'loss' | 'draw',
  params: QqPointsParams = QQ_POINTS_PARAMS.defaults,
): number {
  const d = Math.abs(self - opp);
  const flat = d >= params.flatGap;
  const step = Math.floor(d / params.gapDivisor);
  if (result === 'draw') {
    const moved = flat ? params.flatPoints : step;
    return self > opp ? -moved : self < opp ? moved : 0;
  }
  const winner = result === 'win' ? self : opp;
  const loser = result === 'win' ? opp : self;
  const gain = flat
    ? params.flatPoints
    : winner >= loser
      ? params.basePoints - step
      : params.basePoints + step;
  return result === 'win' ? gain : -gain;
}

function score({ players, before, ladder }: GameInput<QqPointsParams>): GameScore {
  const results = twoPlayerResults(players);
  if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
  const params = ladder.params;
  const [ra, rb] = [before[0]!.rating, before[1]!.rating];
  const gap = Math.abs(ra - rb);
  if (gap >= params.resultOnlyGap) {
    const why = { kind: 'gate', gate: `gap>=${params.resultOnlyGap}` } as const;
    return { kind: 'scored', effects: results.results.map((r) => resultOnly(r, why)) };
  }
  const delta = qqPointsDelta(ra, rb, results.results[0], params);
  const why = { kind: 'qq-points', gap, bracket: gap >= params.flatGap ? 'far' : 'near' } as const;
  return {
    kind: 'scored',
    effects: [rated(results.results[0], delta, why), rated(results.results[1], -delta, why)],
  };
}

export const qqPoints: RuleSet = {
  name: 'qq-points',
  params: QQ_POINTS_PARAMS,
  reportFields: ['result'],
  playerCounts: [2],
  skillMatch: headToHead,
  closes: [],
  penalties: { floor: () => null },
  disconnects: () => null,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields: (players) => missingResult(players),
  score,
  outputFields: (player) => ({ title: qqPointsTitle(player.rating) }),
};
