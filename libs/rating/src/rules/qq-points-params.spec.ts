import type { GameResult } from '@ranking/contracts';
import type { LadderConfig } from '../index.js';
import { ladderWith, oneGame, pair } from './params.fixture.js';

// RULES.md "Rule-set parameters", qq-points: resultOnlyGap 200, flatGap 100, flatPoints 1,
// basePoints 10, gapDivisor 10. Each case plays one game on the built-in qq-gomoku and on the
// same ladder with one parameter changed: only what the parameter names differs.

const BUILT_IN = ladderWith('qq-gomoku');
const withParams = (params: Record<string, unknown>) => ladderWith('qq-gomoku', params);

/** A (at `a` points) plays B (at `b`) with A's result: each one's move, and A's why. */
function played(ladder: LadderConfig, a: number, b: number, resultOfA: GameResult) {
  const { fold, outcome } = oneGame(ladder, pair('A', 'B', resultOfA), { ratings: { A: a, B: b } });
  if (outcome.status !== 'applied') throw new Error(`not applied: ${JSON.stringify(outcome)}`);
  const [ca, cb] = outcome.changes;
  return { a: ca!.delta, b: cb!.delta, why: ca!.why, rated: fold.player('A').ratedGames };
}

describe('qq-points parameters', () => {
  it('Given resultOnlyGap 150, When players 160 apart play, Then the game is result-only (it moves ±1 by default)', () => {
    expect(played(BUILT_IN, 160, 0, 'win')).toMatchObject({ a: 1, b: -1, rated: 1 });
    expect(played(withParams({ resultOnlyGap: 150 }), 160, 0, 'win')).toEqual({
      a: 0,
      b: 0,
      why: { kind: 'gate', gate: 'gap>=150' },
      rated: 0,
    });
  });

  it('Given flatGap 50, When players 60 apart play, Then the game moves ±flatPoints (10 − 6 = 4 by default)', () => {
    expect(played(BUILT_IN, 60, 0, 'win')).toMatchObject({ a: 4, b: -4 });
    expect(played(withParams({ flatGap: 50 }), 60, 0, 'win')).toMatchObject({
      a: 1,
      b: -1,
      why: { kind: 'qq-points', gap: 60, bracket: 'far' },
    });
  });

  it('Given flatPoints 3, When players 120 apart win or draw, Then ±3 moves instead of ±1', () => {
    expect(played(BUILT_IN, 120, 0, 'win')).toMatchObject({ a: 1, b: -1 });
    const ladder = withParams({ flatPoints: 3 });
    expect(played(ladder, 120, 0, 'win')).toMatchObject({ a: 3, b: -3 });
    // A draw: higher −flatPoints, lower +flatPoints.
    expect(played(ladder, 120, 0, 'draw')).toMatchObject({ a: -3, b: 3 });
    // A near game keeps its own numbers: 10 − floor(30/10) = 7.
    expect(played(ladder, 30, 0, 'win')).toMatchObject({ a: 7, b: -7 });
  });

  it('Given basePoints 20, When near players play, Then the win moves 20 ∓ floor(d/10)', () => {
    expect(played(BUILT_IN, 0, 0, 'win')).toMatchObject({ a: 10, b: -10 });
    const ladder = withParams({ basePoints: 20 });
    expect(played(ladder, 0, 0, 'win')).toMatchObject({ a: 20, b: -20 });
    expect(played(ladder, 30, 0, 'win')).toMatchObject({ a: 17, b: -17 }); // 20 − 3
    expect(played(ladder, 0, 30, 'win')).toMatchObject({ a: 23, b: -23 }); // 20 + 3
    // Draws do not use basePoints: lower +floor(30/10) = 3.
    expect(played(ladder, 0, 30, 'draw')).toMatchObject({ a: 3, b: -3 });
  });

  it('Given gapDivisor 5, When players 30 apart win or draw, Then floor(30/5) = 6 replaces floor(30/10) = 3', () => {
    expect(played(BUILT_IN, 30, 0, 'win')).toMatchObject({ a: 7, b: -7 });
    expect(played(BUILT_IN, 30, 0, 'draw')).toMatchObject({ a: -3, b: 3 });
    const ladder = withParams({ gapDivisor: 5 });
    expect(played(ladder, 30, 0, 'win')).toMatchObject({ a: 4, b: -4 }); // 10 − 6
    expect(played(ladder, 30, 0, 'draw')).toMatchObject({ a: -6, b: 6 });
  });

  it('Given no params, Then the defaults are the numbers of RULES.md', () => {
    expect(BUILT_IN.params).toEqual({
      resultOnlyGap: 200,
      flatGap: 100,
      flatPoints: 1,
      basePoints: 10,
      gapDivisor: 10,
    });
    expect(withParams({})).toEqual(BUILT_IN);
  });
});
