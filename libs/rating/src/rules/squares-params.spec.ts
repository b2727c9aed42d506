import { ladderWith, ratingsAfter } from './params.fixture.js';

// RULES.md "Rule-set parameters", squares: winPoints 20, teamPoints 20, teamPerfectPoints 30,
// perfectBonus 1. Each case plays one game on the built-in qq-blokus and on it with one
// parameter changed.

const BUILT_IN = ladderWith('qq-blokus');
const withParams = (params: Record<string, unknown>) => ladderWith('qq-blokus', params);

const p = (id: string, result: 'win' | 'loss' | 'draw', remaining: number, extra = {}) => ({
  id,
  result,
  remaining,
  ...extra,
});

describe('squares parameters', () => {
  it('Given winPoints 30, When a two-player game is won, Then the winner gains 30 (the loser pays as before)', () => {
    const game = [p('a', 'win', 3), p('b', 'loss', 9)];
    expect(ratingsAfter(BUILT_IN, game)).toEqual({ a: 20, b: -5 }); // ceil(9/2)
    expect(ratingsAfter(withParams({ winPoints: 30 }), game)).toEqual({ a: 30, b: -5 });
  });

  it('Given teamPoints 40, When a team wins with no member cleared, Then it shares 40 (+20 each)', () => {
    const game = [
      p('a', 'win', 2, { team: 'x' }),
      p('c', 'win', 4, { team: 'x' }),
      p('b', 'loss', 6, { team: 'y' }),
      p('d', 'loss', 7, { team: 'y' }),
    ];
    expect(ratingsAfter(BUILT_IN, game)).toEqual({ a: 10, c: 10, b: -3, d: -4 });
    expect(ratingsAfter(withParams({ teamPoints: 40 }), game)).toEqual({
      a: 20,
      c: 20,
      b: -3,
      d: -4,
    });
  });

  it('Given teamPerfectPoints 50, When a team wins with a member at 0 remaining, Then it shares 50 (+25 each)', () => {
    const game = [
      p('a', 'win', 0, { team: 'x' }),
      p('c', 'win', 4, { team: 'x' }),
      p('b', 'loss', 6, { team: 'y' }),
      p('d', 'loss', 7, { team: 'y' }),
    ];
    // A winner cleared: the losers pay their remaining in full.
    expect(ratingsAfter(BUILT_IN, game)).toEqual({ a: 15, c: 15, b: -6, d: -7 });
    const ladder = withParams({ teamPerfectPoints: 50 });
    expect(ratingsAfter(ladder, game)).toEqual({ a: 25, c: 25, b: -6, d: -7 });
  });

  it('Given perfectBonus 5, When a player reports perfect, Then they gain 5 more whatever the result', () => {
    const game = [p('a', 'win', 3, { perfect: true }), p('b', 'loss', 9, { perfect: true })];
    expect(ratingsAfter(BUILT_IN, game)).toEqual({ a: 21, b: -4 });
    expect(ratingsAfter(withParams({ perfectBonus: 5 }), game)).toEqual({ a: 25, b: 0 });
    const drawn = [p('a', 'draw', 5, { perfect: true }), p('b', 'draw', 5)];
    expect(ratingsAfter(withParams({ perfectBonus: 5 }), drawn)).toEqual({ a: 5, b: 0 });
  });

  it('Given no params, Then the defaults are the numbers of RULES.md', () => {
    expect(BUILT_IN.params).toEqual({
      winPoints: 20,
      teamPoints: 20,
      teamPerfectPoints: 30,
      perfectBonus: 1,
    });
  });
});
