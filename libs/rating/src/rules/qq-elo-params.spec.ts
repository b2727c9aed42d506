import type { GameResult } from '@ranking/contracts';
import type { LadderConfig } from '../index.js';
import { ladderWith, oneGame, pair } from './params.fixture.js';

// RULES.md "Rule-set parameters", qq-elo: k [<1000: 120, <1400: 60, <1800: 30, <2000: 25,
// <2200: 20, <2400: 15, else 10], firstMoveOffset 100, eloScale 400, minMoves 2. Each case plays
// one game on the built-in qq-xiangqi and on it with one parameter changed.
//   A moves first at 1300 v 1300: Dr_A = 0 − 100 = −100, E_A = 1/(10^(−0.25) + 1) = 0.640065,
//   E_B = 0.359935.

const BUILT_IN = ladderWith('qq-xiangqi');
const withParams = (params: Record<string, unknown>) => ladderWith('qq-xiangqi', params);

/** A (first mover, at `a`) plays B (at `b`): both ratings after, or the void reason. */
function played(ladder: LadderConfig, a: number, b: number, resultOfA: GameResult, moves = 40) {
  const { fold, outcome } = oneGame(ladder, pair('A', 'B', resultOfA, { first: true }), {
    ratings: { A: a, B: b },
    moves,
  });
  if (outcome.status === 'void') return { void: outcome.reason };
  return { a: fold.player('A').rating, b: fold.player('B').rating };
}

describe('qq-elo parameters', () => {
  it('Given k [{below 1400, k 40}, {k 10}], When 1300 beats 1300, Then K is 40 where it was 60', () => {
    // Default K 60: A 1300 + 60·0.359935 = 1321.60 → 1322; B 1300 − 60·0.359935 = 1278.40 → 1278.
    expect(played(BUILT_IN, 1300, 1300, 'win')).toEqual({ a: 1322, b: 1278 });
    // K 40: A 1300 + 14.397 → 1314; B 1300 − 14.397 = 1285.60 → 1286.
    const ladder = withParams({ k: [{ below: 1400, k: 40 }, { k: 10 }] });
    expect(played(ladder, 1300, 1300, 'win')).toEqual({ a: 1314, b: 1286 });
    // At 1500 the last row's 10 (default 30): A 1500 + 10·(1 − 0.640065) = 1503.60 → 1504.
    expect(played(ladder, 1500, 1500, 'win')).toMatchObject({ a: 1504 });
    expect(played(BUILT_IN, 1500, 1500, 'win')).toMatchObject({ a: 1511 }); // + 10.80
  });

  it('Given firstMoveOffset 0, When 1300 draws 1300, Then nobody moves (the first mover pays 8 by default)', () => {
    expect(played(BUILT_IN, 1300, 1300, 'draw')).toEqual({ a: 1292, b: 1308 });
    expect(played(withParams({ firstMoveOffset: 0 }), 1300, 1300, 'draw')).toEqual({
      a: 1300,
      b: 1300,
    });
  });

  it('Given eloScale 800, When 1300 draws 1300, Then E_A = 1/(10^(−100/800) + 1) = 0.571463', () => {
    // 1300 + 60·(0.5 − 0.571463) = 1295.71 → 1296; B 1304.29 → 1304.
    expect(played(withParams({ eloScale: 800 }), 1300, 1300, 'draw')).toEqual({
      a: 1296,
      b: 1304,
    });
  });

  it('Given minMoves 10, When a game ends after 5 moves, Then it is void (rated by default)', () => {
    expect(played(BUILT_IN, 1300, 1300, 'win', 5)).toEqual({ a: 1322, b: 1278 });
    const ladder = withParams({ minMoves: 10 });
    expect(played(ladder, 1300, 1300, 'win', 5)).toEqual({ void: 'too-short' });
    expect(played(ladder, 1300, 1300, 'win', 10)).toEqual({ a: 1322, b: 1278 });
    // minMoves 0: even a game without moves counts.
    expect(played(withParams({ minMoves: 0 }), 1300, 1300, 'win', 0)).toEqual({ a: 1322, b: 1278 });
    expect(played(BUILT_IN, 1300, 1300, 'win', 1)).toEqual({ void: 'too-short' });
  });

  it('Given no params, Then the defaults are the numbers of RULES.md', () => {
    expect(BUILT_IN.params).toEqual({
      k: [
        { below: 1000, k: 120 },
        { below: 1400, k: 60 },
        { below: 1800, k: 30 },
        { below: 2000, k: 25 },
        { below: 2200, k: 20 },
        { below: 2400, k: 15 },
        { k: 10 },
      ],
      firstMoveOffset: 100,
      eloScale: 400,
      minMoves: 2,
    });
  });
});
