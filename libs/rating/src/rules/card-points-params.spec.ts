import type { PlayerReport } from '@ranking/contracts';
import { ladderWith, ratingsAfter } from './params.fixture.js';

// RULES.md "Rule-set parameters", card-points: firstOutBonus 20, lastOutPenalty 20. Each case
// plays one hand on the built-in qq-fifty-k and on it with one parameter changed.

const BUILT_IN = ladderWith('qq-fifty-k');
const withParams = (params: Record<string, unknown>) => ladderWith('qq-fifty-k', params);

/** One card player: seat, table points, finish order (null = still holding), hand points. */
const c = (
  id: string,
  seat: number,
  tablePoints: number,
  finishOrder: number | null,
  handPoints = 0,
): PlayerReport => ({ id, seat, tablePoints, finishOrder, handPoints });

// Three players: a out first with 10, b second with 20, c still holds 5 with 30 on the table.
// Default cards: a 10 + 20 = 30, b 20, c 30 − 20 − 5 = 5; places a, b, c; no doubling.
const THREE = [c('a', 0, 10, 1), c('b', 1, 20, 2), c('c', 2, 30, null, 5)];
// Four players, seats 0/2 against 1/3: {1,2,3} with 1 and 2 on different teams.
// Default: a 10 + 20 = 30, c 0 → 30; b 50, d 20 − 20 − 15 = −15 → 35. 1/3 win: 17.5 each, 15 each.
const FOUR = [c('a', 0, 10, 1), c('b', 1, 50, 2), c('c', 2, 0, 3), c('d', 3, 20, null, 15)];

describe('card-points parameters', () => {
  it('Given firstOutBonus 30, When a hand is scored, Then the first out gets 30', () => {
    expect(ratingsAfter(BUILT_IN, THREE)).toEqual({ a: 30, b: 20, c: 5 });
    expect(ratingsAfter(withParams({ firstOutBonus: 30 }), THREE)).toEqual({ a: 40, b: 20, c: 5 });
    expect(ratingsAfter(BUILT_IN, FOUR)).toEqual({ a: 15, c: 15, b: 17.5, d: 17.5 });
    // a 10 + 30 = 40 → team 0/2 has 40 > 35 and wins: 20 each; 17.5 each for 1/3.
    expect(ratingsAfter(withParams({ firstOutBonus: 30 }), FOUR)).toEqual({
      a: 20,
      c: 20,
      b: 17.5,
      d: 17.5,
    });
  });

  it('Given lastOutPenalty 30, When a player is left holding cards, Then they pay 30 plus their hand', () => {
    // c: 30 − 30 − 5 = −5.
    expect(ratingsAfter(withParams({ lastOutPenalty: 30 }), THREE)).toEqual({
      a: 30,
      b: 20,
      c: -5,
    });
    // d: 20 − 30 − 15 = −25 → team 1/3 has 25 < 30: 0/2 win, 15 each; 1/3 12.5 each.
    expect(ratingsAfter(withParams({ lastOutPenalty: 30 }), FOUR)).toEqual({
      a: 15,
      c: 15,
      b: 12.5,
      d: 12.5,
    });
  });

  it('Given no params, Then the defaults are the numbers of RULES.md', () => {
    expect(BUILT_IN.params).toEqual({ firstOutBonus: 20, lastOutPenalty: 20 });
  });
});
