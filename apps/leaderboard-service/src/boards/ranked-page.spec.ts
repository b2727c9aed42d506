import { rankSlice } from './ranked-page.js';

const item = (member: string, score: string) => ({ member, score, data: '' });

describe('rankSlice', () => {
  it('given equal scores, then they share a rank and the next rank skips (1, 2, 2, 4)', () => {
    const ranked = rankSlice({
      start: 0,
      firstRank: 1,
      items: [item('a', '-9'), item('b', '-8'), item('c', '-8'), item('d', '-7')],
    });
    expect(ranked.map((r) => r.rank)).toEqual([1, 2, 2, 4]);
  });

  it('given a later page that starts inside a tie, then its first rank is the tie rank', () => {
    const ranked = rankSlice({
      start: 3,
      firstRank: 2,
      items: [item('d', '-8'), item('e', '-7'), item('f', '-7')],
    });
    expect(ranked.map((r) => r.rank)).toEqual([2, 5, 5]);
  });
});
