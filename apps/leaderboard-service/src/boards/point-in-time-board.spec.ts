import fc from 'fast-check';
import type { StandingRow } from '@ranking/persistence';
import { ladderRegistry } from '@ranking/rating';
import type { PageCursor } from './page-cursor.js';
import { byCodePoint, PointInTimeBoard } from './point-in-time-board.js';
import { rankSlice } from './ranked-page.js';

const igame = ladderRegistry().get('igame-gomoku')!; // ranked after 20 rated games

const standing = (player: string, rating: number, ratedGames = 30): StandingRow => ({
  player,
  rating,
  games: Math.max(ratedGames, 1),
  wins: 1,
  losses: 0,
  draws: 0,
  ratedGames,
  level: 0,
});

/** The board the plain way: eligible players, rating descending, ties in byte order, 1-2-2-4. */
function oracle(rows: readonly StandingRow[]): { rank: number; player: string }[] {
  const ranked = rows
    .filter((r) => r.ratedGames >= igame.rankedAfter!)
    .sort(
      (a, b) =>
        b.rating - a.rating ||
        Buffer.compare(Buffer.from(a.player, 'utf8'), Buffer.from(b.player, 'utf8')),
    );
  return ranked.map((r) => ({
    rank: ranked.findIndex((o) => o.rating === r.rating) + 1,
    player: r.player,
  }));
}

/** Every page after the first through the cursor the API would give out. */
function wholeBoard(board: PointInTimeBoard, limit: number): { rank: number; player: string }[] {
  const out: { rank: number; player: string }[] = [];
  let cursor: PageCursor | null = null;
  for (;;) {
    const page = board.page(cursor, limit);
    out.push(...rankSlice(page).map((r) => ({ rank: r.rank, player: r.member })));
    const last = page.items[page.items.length - 1];
    if (!last || page.start + page.items.length >= page.total) return out;
    cursor = { member: last.member, score: last.score };
  }
}

const rowsArbitrary = fc.uniqueArray(
  fc.record({
    player: fc.string({ minLength: 1, maxLength: 4, unit: 'binary' }),
    // Few distinct ratings, so ties are common; some players short of eligibility.
    rating: fc.integer({ min: 1490, max: 1510 }).map((r) => r + 0.5),
    ratedGames: fc.integer({ min: 15, max: 25 }),
  }),
  { selector: (r) => r.player, maxLength: 80 },
);

describe('PointInTimeBoard', () => {
  it('given any standings, then paging through it with any page size gives the board the plain way (eligibility, ties in byte order, competition ranks)', () => {
    fc.assert(
      fc.property(rowsArbitrary, fc.integer({ min: 1, max: 9 }), (raw, limit) => {
        const rows = raw.map((r) => standing(r.player, r.rating, r.ratedGames));
        const board = new PointInTimeBoard(rows, igame);
        const expected = oracle(rows);
        expect(board.total).toBe(expected.length);
        expect(wholeBoard(board, limit)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('given a player, then their rank and neighbours are those of the whole board; an unranked one has a row and no neighbours', () => {
    fc.assert(
      fc.property(rowsArbitrary, fc.integer({ min: 0, max: 3 }), (raw, around) => {
        const rows = raw.map((r) => standing(r.player, r.rating, r.ratedGames));
        const board = new PointInTimeBoard(rows, igame);
        const expected = oracle(rows);
        for (const row of rows) {
          const { data, index, board: part } = board.member(row.player, around);
          expect(data).toBe(`${row.rating}|${row.games}|1|0|0|${row.ratedGames}|0`);
          const at = expected.findIndex((e) => e.player === row.player);
          if (at === -1) {
            expect(index).toBeNull();
            expect(part.items).toEqual([]);
            continue;
          }
          expect(index).toBe(at);
          const ranked = rankSlice(part).map((r) => ({ rank: r.rank, player: r.member }));
          expect(ranked).toEqual(expected.slice(Math.max(0, at - around), at + around + 1));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('given a cursor whose player has since moved, then the page starts after the cursor score, as the live board does', () => {
    const board = new PointInTimeBoard(
      [standing('a', 1600), standing('b', 1500), standing('c', 1500), standing('d', 1400)],
      igame,
    );
    expect(board.page({ member: 'gone', score: '-1500' }, 10).items.map((i) => i.member)).toEqual([
      'd',
    ]);
    expect(board.page({ member: 'b', score: '-1500' }, 10).items.map((i) => i.member)).toEqual([
      'c',
      'd',
    ]);
    expect(rankSlice(board.page({ member: 'b', score: '-1500' }, 1))[0]).toMatchObject({
      member: 'c',
      rank: 2,
    });
  });

  it('given no standings, then an empty board', () => {
    const board = new PointInTimeBoard([], igame);
    expect(board.total).toBe(0);
    expect(board.page(null, 50)).toEqual({ start: 0, firstRank: 0, total: 0, items: [] });
    expect(board.member('x', 5).data).toBeNull();
  });

  it('byCodePoint orders as UTF-8 bytes do (surrogate pairs after U+E000 and up)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(byCodePoint(a, b))).toBe(
          Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
