import type { GameFinished, PlayerReport } from '@ranking/contracts';
import {
  BUILT_IN_LADDERS,
  LadderFold,
  ladderRegistry,
  newPlayer,
  type PlayerState,
  qqEloK,
  qqEloTitle,
  ReplayEngine,
} from '../index.js';

// RULES.md "qq-elo" (seed 003): Dr = (R_opp - R_self) + Y, Y = -100 for the first mover and
// +100 for the other; E = 1/(10^(Dr/400) + 1); new = round(R + K(S - E)), round = floor(x + 0.5).
// Values used below (by hand):
//   10^(-100/400) = 0.562341 -> E(Dr=-100) = 1/1.562341 = 0.640065; E(Dr=+100) = 0.359935
//   10^(-200/400) = 0.316228 -> E(Dr=-200) = 1/1.316228 = 0.759747; E(Dr=+200) = 0.240253

const LADDER = BUILT_IN_LADDERS.find((l) => l.id === 'qq-xiangqi')!;

/** A qq-xiangqi ladder whose players already stand at the given ratings. */
function givenRatings(ratings: Record<string, number>): LadderFold {
  return LadderFold.restore(LADDER, {
    ladder: LADDER.id,
    players: Object.entries(ratings).map(([id, rating]) => ({ ...newPlayer(id, LADDER), rating })),
    games: [],
    closed: [],
    accepted: 0,
  });
}

let seq = 0;
function gameEvent(players: PlayerReport[], moves = 60): GameFinished {
  seq += 1;
  return {
    id: `x-${seq}`,
    type: 'game.finished',
    ladder: LADDER.id,
    gameId: `g-${seq}`,
    finishedAt: '2026-11-29T20:00:00+08:00',
    moves,
    players,
  };
}

function whenPlayed(fold: LadderFold, players: PlayerReport[], moves = 60): PlayerState[] {
  const outcome = fold.evolve(gameEvent(players, moves));
  expect(outcome.status).toBe('applied');
  return players.map((p) => fold.player(p.id));
}

/** Folds raw lines through the offline replay and returns the parsed output. */
interface Output {
  ladders: Record<string, { players: Record<string, Record<string, unknown>> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string; reason: string }[];
}

function replay(lines: string[]): Output {
  const engine = new ReplayEngine(ladderRegistry());
  for (const line of lines) engine.ingestLine(line);
  return JSON.parse([...engine.render()].join('')) as Output;
}

const line = (id: string, players: PlayerReport[], moves = 60): string =>
  JSON.stringify({ ...gameEvent(players, moves), id });

describe('qq-elo', () => {
  describe('given two new players at 1300', () => {
    describe('when the game is drawn', () => {
      it('then the first mover has 1292 and the other 1308 (the seed-003 example)', () => {
        // first: Dr = 0 - 100 = -100, E = 0.640065, 1300 + 60(0.5 - 0.640065) = 1291.596 -> 1292
        // other: Dr = 0 + 100 = +100, E = 0.359935, 1300 + 60(0.5 - 0.359935) = 1308.404 -> 1308
        const out = replay([
          line('d-1', [
            { id: 'red', result: 'draw', first: true },
            { id: 'black', result: 'draw', first: false },
          ]),
        ]);
        expect(out.ladders['qq-xiangqi']!.players).toEqual({
          red: {
            rating: 1292,
            games: 1,
            wins: 0,
            losses: 0,
            draws: 1,
            ranked: true,
            title: '七级',
          },
          black: {
            rating: 1308,
            games: 1,
            wins: 0,
            losses: 0,
            draws: 1,
            ranked: true,
            title: '六级',
          },
        });
      });

      it('then the first mover loses the points also when listed second', () => {
        const [black, red] = whenPlayed(givenRatings({}), [
          { id: 'black', result: 'draw' },
          { id: 'red', result: 'draw', first: true },
        ]);
        expect([red!.rating, black!.rating]).toEqual([1292, 1308]);
      });
    });

    describe('when the first mover wins', () => {
      it('then the first mover has 1322 and the other 1278', () => {
        // first: 1300 + 60(1 - 0.640065) = 1300 + 21.596 = 1321.596 -> 1322
        // other: 1300 + 60(0 - 0.359935) = 1300 - 21.596 = 1278.404 -> floor(1278.904) = 1278
        const [red, black] = whenPlayed(givenRatings({}), [
          { id: 'red', result: 'win', first: true },
          { id: 'black', result: 'loss', first: false },
        ]);
        expect([red!.rating, black!.rating]).toEqual([1322, 1278]);
      });
    });
  });

  describe('K from the player own rating', () => {
    it.each([
      [0, 120],
      [999, 120],
      [1000, 60],
      [1399, 60],
      [1400, 30],
      [1799, 30],
      [1800, 25],
      [1999, 25],
      [2000, 20],
      [2199, 20],
      [2200, 15],
      [2399, 15],
      [2400, 10],
      [3000, 10],
    ])('given a rating of %d, then K is %d', (rating, k) => {
      expect(qqEloK(rating)).toBe(k);
    });

    describe.each([
      // Both at R; first mover wins: +K * 0.359935, other loses: -K * 0.359935
      [999, 43, '120 * 0.359935 = 43.192 -> +43; 999 - 43.192 = 955.808 -> floor(956.308) = 956'],
      [1000, 22, '60 * 0.359935 = 21.596 -> +22 / -22'],
      [1399, 22, '60 * 0.359935 = 21.596 -> +22 / -22'],
      [1400, 11, '30 * 0.359935 = 10.798 -> +11 / -11'],
      [1799, 11, '30 * 0.359935 = 10.798 -> +11 / -11'],
      [1800, 9, '25 * 0.359935 = 8.998 -> +9 / -9'],
      [1999, 9, '25 * 0.359935 = 8.998 -> +9 / -9'],
      [2000, 7, '20 * 0.359935 = 7.199 -> +7 / -7'],
      [2199, 7, '20 * 0.359935 = 7.199 -> +7 / -7'],
      [2200, 5, '15 * 0.359935 = 5.399 -> +5 / -5'],
      [2399, 5, '15 * 0.359935 = 5.399 -> +5 / -5'],
      [2400, 4, '10 * 0.359935 = 3.599 -> +4 / -4'],
    ])('given both players at %d', (r, step, arithmetic) => {
      it(`when the first mover wins then they move +${step} and -${step} (${arithmetic})`, () => {
        const [first, second] = whenPlayed(givenRatings({ f: r, s: r }), [
          { id: 'f', result: 'win', first: true },
          { id: 's', result: 'loss' },
        ]);
        expect([first!.rating, second!.rating]).toEqual([r + step, r - step]);
      });
    });
  });

  describe('given the first mover at 1000 (K 60) and the other at 900 (K 120)', () => {
    describe('when the first mover wins', () => {
      it('then the ratings are 1014 and 871: not zero-sum (+14, -29)', () => {
        // first: Dr = (900 - 1000) - 100 = -200, E = 0.759747, 1000 + 60 * 0.240253 = 1014.415 -> 1014
        // other: Dr = (1000 - 900) + 100 = +200, E = 0.240253, 900 - 120 * 0.240253 = 871.170 -> 871
        const [first, second] = whenPlayed(givenRatings({ f: 1000, s: 900 }), [
          { id: 'f', result: 'win', first: true },
          { id: 's', result: 'loss', first: false },
        ]);
        expect([first!.rating, second!.rating]).toEqual([1014, 871]);
        expect(first!.rating - 1000 + (second!.rating - 900)).toBe(-15);
      });
    });
  });

  describe('given a game shorter than 2 plies', () => {
    it.each([
      [0, 'win'],
      [1, 'win'],
      [1, 'draw'],
    ] as const)(
      'when it ends after %d moves (%s) then it is void too-short and nothing moves',
      (moves, result) => {
        const loser = result === 'win' ? 'loss' : result;
        const out = replay([
          line(
            'short',
            [
              { id: 'red', result, first: true },
              { id: 'black', result: loser },
            ],
            moves,
          ),
        ]);
        expect(out.void).toEqual([{ id: 'short', reason: 'too-short' }]);
        expect(out.rejected).toEqual([]);
        // void games do not count in records: both players stay in the default state
        expect(out.ladders['qq-xiangqi']?.players ?? {}).toEqual({});
      },
    );

    it('when it ends after exactly 2 moves then it is rated', () => {
      const out = replay([
        line(
          'two',
          [
            { id: 'red', result: 'win', first: true },
            { id: 'black', result: 'loss' },
          ],
          2,
        ),
      ]);
      expect(out.void).toEqual([]);
      // 1322 / 1278 as above
      expect(out.ladders['qq-xiangqi']!.players).toEqual({
        red: { rating: 1322, games: 1, wins: 1, losses: 0, draws: 0, ranked: true, title: '六级' },
        black: {
          rating: 1278,
          games: 1,
          wins: 0,
          losses: 1,
          draws: 0,
          ranked: true,
          title: '七级',
        },
      });
    });
  });

  describe('given the first-mover flags', () => {
    it.each<[string, boolean | undefined, boolean | undefined]>([
      ['neither flag', undefined, undefined],
      ['both false', false, false],
      ['both true', true, true],
      ['one false, one absent', false, undefined],
    ])(
      'when the event has %s then it is rejected as invalid-event and nothing moves',
      (_label, a, b) => {
        const out = replay([
          line('bad', [
            { id: 'red', result: 'win', ...(a === undefined ? {} : { first: a }) },
            { id: 'black', result: 'loss', ...(b === undefined ? {} : { first: b }) },
          ]),
        ]);
        expect(out.rejected).toEqual([{ id: 'bad', reason: 'invalid-event' }]);
        expect(out.void).toEqual([]);
        expect(out.ladders).toEqual({});
      },
    );

    it('when exactly one is true and the other absent then the game is accepted', () => {
      const out = replay([
        line('ok', [
          { id: 'red', result: 'win', first: true },
          { id: 'black', result: 'loss' },
        ]),
      ]);
      expect(out.rejected).toEqual([]);
      expect(out.ladders['qq-xiangqi']!.players['red']!['rating']).toBe(1322);
    });

    it('when a game has no first mover and too few moves then it is rejected (fields come before void)', () => {
      const out = replay([
        line(
          'short-bad',
          [
            { id: 'red', result: 'win' },
            { id: 'black', result: 'loss' },
          ],
          1,
        ),
      ]);
      expect(out.rejected).toEqual([{ id: 'short-bad', reason: 'invalid-event' }]);
      expect(out.void).toEqual([]);
    });

    it('when a rejected event is sent again fixed with the same id then it is accepted', () => {
      const out = replay([
        line('again', [
          { id: 'red', result: 'win' },
          { id: 'black', result: 'loss' },
        ]),
        line('again', [
          { id: 'red', result: 'win', first: true },
          { id: 'black', result: 'loss' },
        ]),
      ]);
      expect(out.rejected).toEqual([{ id: 'again', reason: 'invalid-event' }]);
      expect(out.ladders['qq-xiangqi']!.players['red']!['rating']).toBe(1322);
    });
  });

  describe('titles', () => {
    it.each([
      [-50, '九级'],
      [0, '九级'],
      [1099, '九级'],
      [1100, '八级'],
      [1199, '八级'],
      [1200, '七级'],
      [1299, '七级'],
      [1300, '六级'],
      [1400, '五级'],
      [1500, '四级'],
      [1600, '三级'],
      [1700, '二级'],
      [1799, '二级'],
      [1800, '一级'],
      [1999, '一级'],
      [2000, '三级大师'],
      [2199, '三级大师'],
      [2200, '二级大师'],
      [2399, '二级大师'],
      [2400, '一级大师'],
      [2599, '一级大师'],
      [2600, '特级大师'],
      [3200, '特级大师'],
    ])('given a rating of %d, then the title is %s', (rating, title) => {
      expect(qqEloTitle(rating)).toBe(title);
    });
  });
});
