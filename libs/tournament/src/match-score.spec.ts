import { type MatchGame, scoreMatch } from './match-score.js';

// Seed 000 rule 3: up to 4 games, first to 3 wins ends the match; rule 9: a no-show is 0:3.

const PAIR = ['ann', 'bo'] as const;
let n = 0;
const games = (marks: string, noShowAt = -1): MatchGame[] =>
  [...marks].map((m, i) => ({
    gameId: `g${++n}`,
    winner: m === 'a' ? 'ann' : m === 'b' ? 'bo' : null,
    noShow: i === noShowAt,
  }));

describe('a match', () => {
  it.each([
    ['aaa', [3, 0], 'ann', 'finished'],
    ['abbb', [1, 3], 'bo', 'finished'],
    ['abab', [2, 2], null, 'finished'],
    ['aab', [2, 1], null, 'playing'],
    ['', [0, 0], null, 'scheduled'],
    ['adab', [2, 1], 'ann', 'finished'],
    ['dddd', [0, 0], null, 'finished'],
  ] as const)('given games %p, scores %p, winner %p, %s', (marks, wins, winner, status) => {
    const score = scoreMatch(PAIR, games(marks));
    expect(score).toMatchObject({ wins, winner, status, noShow: null });
  });

  it('given a 4th game reported after 3:0, when scored, then it is not counted', () => {
    const played = games('aaab');
    const score = scoreMatch(PAIR, played);
    expect(score.wins).toEqual([3, 0]);
    expect(score.winner).toBe('ann');
    expect(score.counted).toEqual(played.slice(0, 3).map((g) => g.gameId));
    expect(score.uncounted).toEqual([{ gameId: played[3]!.gameId, why: 'after-end' }]);
  });

  it('given 2:2 after four games, when a fifth is reported, then the draw stands', () => {
    const score = scoreMatch(PAIR, games('ababa'));
    expect(score).toMatchObject({ wins: [2, 2], winner: null, status: 'finished' });
    expect(score.uncounted).toHaveLength(1);
  });

  it('given a no-show of the second player, then the first wins 3:0', () => {
    const score = scoreMatch(PAIR, games('a', 0));
    expect(score).toMatchObject({ wins: [3, 0], winner: 'ann', noShow: 'bo', status: 'finished' });
  });

  it('given a no-show after two games, then the no-show replaces them: 0:3 for the absent player', () => {
    const played = games('abb', 2);
    const score = scoreMatch(PAIR, played);
    expect(score).toMatchObject({ wins: [0, 3], winner: 'bo', noShow: 'ann' });
    expect(score.counted).toEqual([played[2]!.gameId]);
    expect(score.uncounted.map((u) => u.why)).toEqual([
      'replaced-by-no-show',
      'replaced-by-no-show',
    ]);
  });

  it('given a match already decided, then a later no-show changes nothing', () => {
    const score = scoreMatch(PAIR, games('bbbb', 3));
    expect(score).toMatchObject({ wins: [0, 3], winner: 'bo', noShow: null });
  });
});
