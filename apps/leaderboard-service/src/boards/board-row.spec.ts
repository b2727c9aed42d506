import { ladderRegistry } from '@ranking/rating';
import { boardEntry, decodeRow, rowJson } from './board-row.js';

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

  it('rowJson writes the rank first, then the same text as JSON.stringify of decodeRow, for every ladder', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    const data = boardEntry(row, xiangqi).data;
    expect(Object.keys(JSON.parse(rowJson(3, 'p', data, xiangqi)))).toEqual([
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
    for (const ladder of ladders.values())
      for (const [player, rating, level] of [
        ['p', 1700, 25],
        ['棋手 "引号" \\ 反斜杠', -15, 1],
        ['\u0000\n', 2600, 9],
      ] as const) {
        const stored = boardEntry({ ...row, player, rating, level }, ladder).data;
        const decoded = decodeRow(player, stored, ladder);
        expect(rowJson(null, player, stored, ladder)).toBe(JSON.stringify(decoded));
        expect(rowJson(7, player, stored, ladder)).toBe(JSON.stringify({ rank: 7, ...decoded }));
      }
  });

  it('rowJson writes what JSON cannot hold as null, as JSON.stringify does', () => {
    const xiangqi = ladders.get('qq-xiangqi')!;
    expect(JSON.parse(rowJson(1, 'p', 'x|1|1|0|0|1|25', xiangqi))).toMatchObject({
      rating: null,
      games: 1,
    });
  });
});
