import { type LadderConfig, LadderFold, newPlayer, type PlayerState } from '../index.js';
import { ladderWith, oneGame, pair } from './params.fixture.js';

// RULES.md "Rule-set parameters", xinbo-points: minMoves 10, gapLimit 300, dailyCaptureCap 10,
// capturesPerLevel 10, brackets 14–10 +12/0, 9–5 +20/−10, 4–2 +15/−10, 1 +12/−12. Each case
// runs on the built-in xinbo-go and on it with one parameter changed.

const BUILT_IN = ladderWith('xinbo-go');
const withParams = (params: Record<string, unknown>) => ladderWith('xinbo-go', params);

const territory = (
  ladder: LadderConfig,
  id: string,
  level: number,
  score: number,
): PlayerState => ({
  ...newPlayer(id, ladder),
  level,
  territory: true,
  rating: score,
});

/** a and b (both territory players at `level` with `scores`) play: a wins; their scores after. */
function territoryGame(ladder: LadderConfig, level: number, scores: [number, number], moves = 120) {
  const { fold, outcome } = oneGame(ladder, pair('a', 'b', 'win'), {
    given: [territory(ladder, 'a', level, scores[0]), territory(ladder, 'b', level, scores[1])],
    moves,
  });
  if (outcome.status === 'void') return { void: outcome.reason };
  if (outcome.status !== 'applied') throw new Error(JSON.stringify(outcome));
  return { a: fold.player('a').rating, b: fold.player('b').rating, why: outcome.changes[0]!.why };
}

describe('xinbo-points parameters', () => {
  it('Given minMoves 20, When a territory game ends after 15 moves, Then it is void (rated by default)', () => {
    expect(territoryGame(BUILT_IN, 12, [2600, 2600], 15)).toMatchObject({ a: 2612, b: 2600 });
    const ladder = withParams({ minMoves: 20 });
    expect(territoryGame(ladder, 12, [2600, 2600], 15)).toEqual({ void: 'too-short' });
    expect(territoryGame(ladder, 12, [2600, 2600], 20)).toMatchObject({ a: 2612, b: 2600 });
  });

  it('Given gapLimit 100, When two 9级 players 150 apart play, Then the game is result-only', () => {
    // By default 150 < 300: the 9–5 bracket moves +20 and −10.
    expect(territoryGame(BUILT_IN, 9, [3200, 3350])).toMatchObject({ a: 3220, b: 3340 });
    expect(territoryGame(withParams({ gapLimit: 100 }), 9, [3200, 3350])).toEqual({
      a: 3200,
      b: 3350,
      why: { kind: 'gate', gate: 'gap>=100' },
    });
  });

  it('Given dailyCaptureCap 5, When a capture-stage player reports 8 captures, Then 5 are valid (8 by default)', () => {
    const captures = (ladder: LadderConfig) =>
      oneGame(ladder, pair('a', 'b', 'win', { captures: 8 }, { captures: 2 }), {
        context: { kind: 'capture', captureTarget: 5 },
      }).fold.player('a').captures;
    expect(captures(BUILT_IN)).toBe(8);
    expect(captures(withParams({ dailyCaptureCap: 5 }))).toBe(5);
  });

  it('Given capturesPerLevel 5, When a player with 10 valid captures reaches the daily close, Then 25 − 10/5 = 23级', () => {
    const closed = (ladder: LadderConfig) => {
      const fold = new LadderFold(ladder);
      fold.setPlayer({ ...newPlayer('a', ladder), captures: 10 });
      fold.close(fold.calendar.window('daily', '2026-03-02'));
      const { level, rating } = fold.player('a');
      return { level, rating };
    };
    expect(closed(BUILT_IN)).toEqual({ level: 24, rating: 200 });
    expect(closed(withParams({ capturesPerLevel: 5 }))).toEqual({ level: 23, rating: 400 });
  });

  it('Given other brackets, When territory players win and lose, Then the bracket of their level gives the amounts', () => {
    const ladder = withParams({
      brackets: [
        { weakest: 14, strongest: 8, win: 30, loss: -5 },
        { weakest: 7, strongest: 1, win: 10, loss: -10 },
      ],
    });
    // 12级: +30 and −5 (by default +12 and 0), in the bracket labelled 14-8.
    expect(territoryGame(BUILT_IN, 12, [2600, 2600])).toMatchObject({ a: 2612, b: 2600 });
    expect(territoryGame(ladder, 12, [2600, 2600])).toEqual({
      a: 2630,
      b: 2595,
      why: { kind: 'bracket', levels: '14-8', result: 'win' },
    });
    // 9级 is still in the first bracket (by default 9–5: +20 and −10).
    expect(territoryGame(ladder, 9, [3200, 3200])).toMatchObject({ a: 3230, b: 3195 });
    expect(territoryGame(ladder, 5, [4000, 4000])).toMatchObject({ a: 4010, b: 3990 });
  });

  it('Given no params, Then the defaults are the numbers of RULES.md', () => {
    expect(BUILT_IN.params).toEqual({
      minMoves: 10,
      gapLimit: 300,
      dailyCaptureCap: 10,
      capturesPerLevel: 10,
      brackets: [
        { weakest: 14, strongest: 10, win: 12, loss: 0 },
        { weakest: 9, strongest: 5, win: 20, loss: -10 },
        { weakest: 4, strongest: 2, win: 15, loss: -10 },
        { weakest: 1, strongest: 1, win: 12, loss: -12 },
      ],
    });
  });
});
