import { ladderRegistry } from '@ranking/rating';
import { boardEntry, decodeRankedRow, decodeRow } from './board-row.js';

const ladders = ladderRegistry();
const row = {
  player: 'p',
  rating: 1700,
  games: 25,
  wins: 15,
  losses: 9,
  draws: 1,
  ratedGames: 19,
  level: 25,
};

describe('board rows', () => {
  it('given i.Game, then a player is ranked only from 20 rated games', () => {
    const igame = ladders.get('igame-gomoku')!;
    expect(boardEntry(row, igame).ranked).toBe(false);
    expect(boardEntry({ ...row, ratedGames: 20 }, igame).ranked).toBe(true);
    expect(boardEntry(row, igame).score).toBe(-1700);
  });

  it('decodes a row with the rule set title or level', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    const decoded = decodeRow('p', boardEntry(row, xiangqi).data, xiangqi);
    expect(decoded).toMatchObject({ player: 'p', rating: 1700, wins: 15, losses: 9, draws: 1 });
    expect(typeof decoded.title).toBe('string');
    const xinbo = ladders.get('xinbo-go')!;
    expect(decodeRow('p', boardEntry({ ...row, level: 12 }, xinbo).data, xinbo).level).toBe(12);
  });

  it('a ranked row lists its rank first, then the row as decodeRow gives it', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    const data = boardEntry(row, xiangqi).data;
    const ranked = decodeRankedRow(3, 'p', data, xiangqi);
    expect(Object.keys(ranked)).toEqual([
      'rank',
      'player',
      'rating',
      'games',
      'wins',
      'losses',
      'draws',
      'ratedGames',
      'title',
    ]);
    expect(ranked).toEqual({ rank: 3, ...decodeRow('p', data, xiangqi) });
  });
});
