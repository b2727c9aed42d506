import { rated } from '../effect.js';
import { kFor, type KTable } from '../k-table.js';
import { roundHalfUp } from '../rounding.js';
import type { GameInput, GameScore, RuleSet } from '../rule-set.js';
import { missingResult, scoreOf, twoPlayerResults } from '../two-player-results.js';
import { QQ_ELO_PARAMS, type QqEloParams } from './qq-elo-params.js';
import { headToHead } from '../skill-match.js';

/** K from the player's own rating (seed 003's table unless given). */
export const qqEloK = (rating: number, table: KTable = QQ_ELO_PARAMS.defaults.k): number =>
  kFor(table, rating);

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

function score({ players, before, moves, ladder }: GameInput<QqEloParams>): GameScore {
  const results = twoPlayerResults(players);
  if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
  const params = ladder.params;
  if (moves < params.minMoves) return { kind: 'void', reason: 'too-short' };
  const effects = [0, 1].map((i) => {
    const self = before[i]!.rating;
    const opp = before[1 - i]!.rating;
    // The first mover's edge: Dr = (R_opp − R_self) + Y, Y = −offset first, +offset second.
    const offset = players[i]!.first === true ? -params.firstMoveOffset : params.firstMoveOffset;
    const expected = 1 / (10 ** ((opp - self + offset) / params.eloScale) + 1);
    const result = results.results[i]!;
    const k = kFor(params.k, self);
    const score = scoreOf(result);
    const next = roundHalfUp(self + k * (score - expected));
    return rated(result, next - self, { kind: 'elo', k, expected, score });
  });
  return { kind: 'scored', effects };
}

export const qqElo: RuleSet = {
  name: 'qq-elo',
  params: QQ_ELO_PARAMS,
  reportFields: ['result', 'first'],
  playerCounts: [2],
  skillMatch: headToHead,
  closes: [],
  penalties: { floor: () => null },
  disconnects: () => null,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields(players) {
    const missing = missingResult(players);
    if (missing) return missing;
    const firsts = players.filter((p) => p.first === true).length;
    return firsts === 1 ? null : `exactly one player must have first: true (found ${firsts})`;
  },
  score,
  outputFields: (player) => ({ title: qqEloTitle(player.rating) }),
};
