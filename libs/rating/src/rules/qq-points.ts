import { rated, resultOnly } from '../effect.js';
import type { RuleSet } from '../rule-set.js';
import { missingResult, twoPlayerResults } from '../two-player-results.js';

/** QQ gomoku title from points (seed 000's table). */
export function qqPointsTitle(points: number): string {
  if (points >= 100) return `${Math.min(9, Math.floor(points / 100))}段`;
  if (points >= 0) return '1级';
  return `${Math.min(9, 1 + Math.ceil(-points / 100))}级`;
}

/** Points moved by one game, seen from the first player (seeds 000/001). */
export function qqPointsDelta(self: number, opp: number, result: 'win' | 'loss' | 'draw'): number {
  const d = Math.abs(self - opp);
  if (result === 'draw') {
    const step = d >= 100 ? 1 : Math.floor(d / 10);
    return self > opp ? -step : self < opp ? step : 0;
  }
  const winner = result === 'win' ? self : opp;
  const loser = result === 'win' ? opp : self;
  const gain = d >= 100 ? 1 : winner >= loser ? 10 - Math.floor(d / 10) : 10 + Math.floor(d / 10);
  return result === 'win' ? gain : -gain;
}

export const qqPoints: RuleSet = {
  name: 'qq-points',
  reportFields: ['result'],
  playerCounts: [2],
  closes: [],
  penalties: { floor: null },
  countsDisconnects: false,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields: (players) => missingResult(players),
  score({ players, before }) {
    const results = twoPlayerResults(players);
    if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
    const [ra, rb] = [before[0]!.rating, before[1]!.rating];
    const gap = Math.abs(ra - rb);
    if (gap >= 200) {
      return {
        kind: 'scored',
        effects: results.results.map((r) => resultOnly(r, { kind: 'gate', gate: 'gap>=200' })),
      };
    }
    const delta = qqPointsDelta(ra, rb, results.results[0]);
    const why = { kind: 'qq-points', gap, bracket: gap >= 100 ? 'far' : 'near' } as const;
    return {
      kind: 'scored',
      effects: [rated(results.results[0], delta, why), rated(results.results[1], -delta, why)],
    };
  },
  outputFields: (player) => ({ title: qqPointsTitle(player.rating) }),
};
