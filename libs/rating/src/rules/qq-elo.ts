import { rated } from '../effect.js';
import { roundHalfUp } from '../rounding.js';
import type { RuleSet } from '../rule-set.js';
import { missingResult, scoreOf, twoPlayerResults } from '../two-player-results.js';

/** K from the player's own rating (seed 003). */
export function qqEloK(rating: number): number {
  if (rating < 1000) return 120;
  if (rating < 1400) return 60;
  if (rating < 1800) return 30;
  if (rating < 2000) return 25;
  if (rating < 2200) return 20;
  if (rating < 2400) return 15;
  return 10;
}

const TITLES: readonly [number, string][] = [
  [2600, '特级大师'],
  [2400, '一级大师'],
  [2200, '二级大师'],
  [2000, '三级大师'],
  [1800, '一级'],
  [1700, '二级'],
  [1600, '三级'],
  [1500, '四级'],
  [1400, '五级'],
  [1300, '六级'],
  [1200, '七级'],
  [1100, '八级'],
];

export function qqEloTitle(rating: number): string {
  return TITLES.find(([min]) => rating >= min)?.[1] ?? '九级';
}

/** The first mover's edge: Dr = (R_opp − R_self) + Y, Y = −100 first, +100 second. */
export const FIRST_MOVE_OFFSET = 100;

export const qqElo: RuleSet = {
  name: 'qq-elo',
  reportFields: ['result', 'first'],
  playerCounts: [2],
  closes: [],
  penalties: { floor: null },
  countsDisconnects: false,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields(players) {
    const missing = missingResult(players);
    if (missing) return missing;
    const firsts = players.filter((p) => p.first === true).length;
    return firsts === 1 ? null : `exactly one player must have first: true (found ${firsts})`;
  },
  score({ players, before, moves }) {
    const results = twoPlayerResults(players);
    if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
    if (moves < 2) return { kind: 'void', reason: 'too-short' };
    const effects = [0, 1].map((i) => {
      const self = before[i]!.rating;
      const opp = before[1 - i]!.rating;
      const offset = players[i]!.first === true ? -FIRST_MOVE_OFFSET : FIRST_MOVE_OFFSET;
      const expected = 1 / (10 ** ((opp - self + offset) / 400) + 1);
      const result = results.results[i]!;
      const k = qqEloK(self);
      const score = scoreOf(result);
      const next = roundHalfUp(self + k * (score - expected));
      return rated(result, next - self, { kind: 'elo', k, expected, score });
    });
    return { kind: 'scored', effects };
  },
  outputFields: (player) => ({ title: qqEloTitle(player.rating) }),
};
