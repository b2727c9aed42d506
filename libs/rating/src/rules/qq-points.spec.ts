import fc from 'fast-check';
import type { GameFinished, GameResult } from '@ranking/contracts';
import {
  BUILT_IN_LADDERS,
  LadderFold,
  ladderRegistry,
  newPlayer,
  type PlayerState,
  qqPointsDelta,
  qqPointsTitle,
  ReplayEngine,
} from '../index.js';

// RULES.md "qq-points" (seeds 000/001). d = |R_a - R_b|.
//   d >= 200: result-only (records count, rating and rated-game count do not move).
//   100 <= d < 200: win +1/-1; draw: higher -1, lower +1.
//   d < 100: win gain = 10 - floor(d/10) if R_winner >= R_loser, else 10 + floor(d/10);
//            draw: lower +floor(d/10), higher -floor(d/10).
// Every expected number is worked out by hand in the comment beside it.

const LADDER = BUILT_IN_LADDERS.find((l) => l.id === 'qq-gomoku')!;

/** A qq-gomoku ladder whose players already stand at the given points. */
function givenPoints(points: Record<string, number>): LadderFold {
  return LadderFold.restore(LADDER, {
    ladder: LADDER.id,
    players: Object.entries(points).map(([id, rating]) => ({ ...newPlayer(id, LADDER), rating })),
    games: [],
    closed: [],
    accepted: 0,
  });
}

const opposite = (r: GameResult): GameResult =>
  r === 'win' ? 'loss' : r === 'loss' ? 'win' : 'draw';

let seq = 0;
/** A plays B with A's result; returns both players after the game. */
function whenPlayed(fold: LadderFold, resultOfA: GameResult): [PlayerState, PlayerState] {
  seq += 1;
  const event: GameFinished = {
    id: `e-${seq}`,
    type: 'game.finished',
    ladder: LADDER.id,
    gameId: `g-${seq}`,
    finishedAt: '2026-11-29T13:05:00+08:00',
    moves: 41,
    players: [
      { id: 'A', result: resultOfA },
      { id: 'B', result: opposite(resultOfA) },
    ],
  };
  const outcome = fold.evolve(event);
  expect(outcome.status).toBe('applied');
  return [fold.player('A'), fold.player('B')];
}

describe('qq-points game brackets', () => {
  describe.each<[number, number, GameResult, number, number, string]>([
    // [R_A, R_B, A's result, A after, B after, arithmetic]
    // ---- d < 100, the higher (or equal) player wins: gain = 10 - floor(d/10)
    [0, 0, 'win', 10, -10, 'd=0, equal: 10-0 = 10'],
    [130, 100, 'win', 137, 93, 'd=30, higher wins: 10-3 = 7'],
    [109, 100, 'win', 119, 90, 'd=9, higher wins: 10-floor(0.9) = 10'],
    [110, 100, 'win', 119, 91, 'd=10, higher wins: 10-1 = 9'],
    [45, 0, 'win', 51, -6, 'd=45, higher wins: 10-floor(4.5) = 6'],
    [199, 100, 'win', 200, 99, 'd=99, higher wins: 10-9 = 1'],
    [20, -50, 'win', 23, -53, 'd=70, higher wins: 10-7 = 3'],
    // ---- d < 100, the lower player wins: gain = 10 + floor(d/10)
    [100, 130, 'win', 113, 117, 'd=30, lower wins: 10+3 = 13'],
    [130, 100, 'loss', 117, 113, 'd=30, lower (B) wins: 10+3 = 13'],
    [100, 109, 'win', 110, 99, 'd=9, lower wins: 10+0 = 10'],
    [100, 110, 'win', 111, 99, 'd=10, lower wins: 10+1 = 11'],
    [100, 199, 'win', 119, 180, 'd=99, lower wins: 10+9 = 19'],
    [-50, 20, 'win', -33, 3, 'd=70, lower wins: 10+7 = 17'],
    // ---- 100 <= d < 200: winner +1, loser -1 whoever wins
    [200, 100, 'win', 201, 99, 'd=100, higher wins: +1/-1'],
    [100, 200, 'win', 101, 199, 'd=100, lower wins: +1/-1'],
    [299, 100, 'win', 300, 99, 'd=199, higher wins: +1/-1'],
    [299, 100, 'loss', 298, 101, 'd=199, lower (B) wins: +1/-1'],
    [-100, 50, 'win', -99, 49, 'd=150, lower wins: +1/-1'],
    // ---- draws, d < 100: lower +floor(d/10), higher -floor(d/10)
    [0, 0, 'draw', 0, 0, 'd=0: floor(0/10) = 0'],
    [135, 100, 'draw', 132, 103, 'd=35: higher -3, lower +3'],
    [100, 135, 'draw', 103, 132, 'd=35: lower +3, higher -3'],
    [109, 100, 'draw', 109, 100, 'd=9: floor(0.9) = 0, nothing moves but the game is rated'],
    [199, 100, 'draw', 190, 109, 'd=99: higher -9, lower +9'],
    // ---- draws, 100 <= d < 200: higher -1, lower +1
    [200, 100, 'draw', 199, 101, 'd=100: higher -1, lower +1'],
    [100, 299, 'draw', 101, 298, 'd=199: lower +1, higher -1'],
  ])('given A at %d and B at %d', (ra, rb, result, expectedA, expectedB, arithmetic) => {
    describe(`when A's result is ${result}`, () => {
      it(`then A has ${expectedA} and B ${expectedB} (${arithmetic}), the game is rated for both, and the sum is unchanged`, () => {
        const [a, b] = whenPlayed(givenPoints({ A: ra, B: rb }), result);
        expect([a.rating, b.rating]).toEqual([expectedA, expectedB]);
        expect([a.ratedGames, b.ratedGames]).toEqual([1, 1]);
        expect([a.games, b.games]).toEqual([1, 1]);
        expect(a.rating + b.rating).toBe(ra + rb);
      });

      it(`then qqPointsDelta seen from A is ${expectedA - ra} and seen from B the opposite`, () => {
        // `+ 0` folds -0 into 0: the higher player's "-floor(d/10)" is -0 when d < 10
        expect(qqPointsDelta(ra, rb, result) + 0).toBe(expectedA - ra);
        expect(qqPointsDelta(rb, ra, opposite(result)) + 0).toBe(expectedB - rb);
      });
    });
  });

  describe.each<[number, number, GameResult]>([
    // d >= 200: result-only
    [300, 100, 'win'], // d=200, higher wins
    [100, 300, 'win'], // d=200, lower wins
    [300, 100, 'draw'], // d=200, draw
    [1000, -500, 'loss'], // d=1500
    [-250, 0, 'draw'], // d=250
  ])('given A at %d and B at %d (d >= 200)', (ra, rb, result) => {
    describe(`when A's result is ${result}`, () => {
      it('then the records count, the ratings do not move and the rated game count stays 0', () => {
        const [a, b] = whenPlayed(givenPoints({ A: ra, B: rb }), result);
        expect([a.rating, b.rating]).toEqual([ra, rb]);
        expect([a.ratedGames, b.ratedGames]).toEqual([0, 0]);
        expect([a.games, b.games]).toEqual([1, 1]);
        expect([a.wins, a.losses, a.draws]).toEqual([
          result === 'win' ? 1 : 0,
          result === 'loss' ? 1 : 0,
          result === 'draw' ? 1 : 0,
        ]);
        expect([b.wins, b.losses, b.draws]).toEqual([
          result === 'loss' ? 1 : 0,
          result === 'win' ? 1 : 0,
          result === 'draw' ? 1 : 0,
        ]);
      });
    });
  });

  describe('given A at 300 and B at 100 who already played 3 rated games each', () => {
    it('when they play a d=200 game then the rated game count stays 3', () => {
      const fold = givenPoints({});
      for (const [id, rating] of [
        ['A', 300],
        ['B', 100],
      ] as const) {
        fold.setPlayer({
          ...newPlayer(id, LADDER),
          rating,
          games: 3,
          wins: 3,
          ratedGames: 3,
        });
      }
      const [a, b] = whenPlayed(fold, 'loss');
      // result-only: records 4 games, rated stays 3, points stay
      expect([a.games, a.ratedGames, a.losses, a.rating]).toEqual([4, 3, 1, 300]);
      expect([b.games, b.ratedGames, b.wins, b.rating]).toEqual([4, 3, 4, 100]);
    });
  });

  describe('given any two point totals (property, fixed seed)', () => {
    it('when they play any result then the points moved sum to zero', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: -1500, max: 1500 }),
          fc.integer({ min: -1500, max: 1500 }),
          fc.constantFrom<GameResult>('win', 'loss', 'draw'),
          (ra, rb, result) => {
            const [a, b] = whenPlayed(givenPoints({ A: ra, B: rb }), result);
            expect(a.rating - ra + (b.rating - rb)).toBe(0);
            // and never more than 19 points (d=99, lower wins: 10+9) move in one game
            expect(Math.abs(a.rating - ra)).toBeLessThanOrEqual(19);
          },
        ),
        { seed: 20261129, numRuns: 300 },
      );
    });
  });
});

describe('qq-points titles', () => {
  it.each([
    // s >= 100: min(9, floor(s/100))段; 0 <= s < 100: 1级; s < 0: min(9, 1 + ceil(-s/100))级
    [-5000, '9级'], // 1 + ceil(50) = 51 -> capped at 9
    [-801, '9级'], // 1 + ceil(8.01) = 10 -> capped at 9
    [-800, '9级'], // 1 + 8 = 9 (seed table: 9级 = -800)
    [-701, '9级'], // 1 + ceil(7.01) = 9
    [-700, '8级'], // 1 + 7 = 8 (seed table: 8级 = -700)
    [-200, '3级'], // 1 + 2 = 3
    [-101, '3级'], // 1 + ceil(1.01) = 3
    [-100, '2级'], // 1 + 1 = 2 (seed table: 2级 = -100)
    [-1, '2级'], // 1 + ceil(0.01) = 2
    [0, '1级'], // seed table: 1级 = 0
    [99, '1级'],
    [100, '1段'], // floor(1) = 1 (seed table: 1段 = 100)
    [199, '1段'],
    [200, '2段'],
    [899, '8段'],
    [900, '9段'], // seed table: 9段 = 900
    [999, '9段'],
    [1000, '9段'], // floor(10) = 10 -> capped at 9
    [5000, '9段'],
  ])('given %d points, then the title is %s', (points, title) => {
    expect(qqPointsTitle(points)).toBe(title);
  });
});

describe('qq-gomoku through the offline replay', () => {
  describe('given two new players at 0 points', () => {
    describe('when alice beats bob and the output is rendered', () => {
      it('then alice has 10 points (1级), bob -10 (2级), and both are ranked after 1 rated game', () => {
        const engine = new ReplayEngine(ladderRegistry());
        const line = JSON.stringify({
          id: 'q-1',
          type: 'game.finished',
          ladder: 'qq-gomoku',
          gameId: 'g-1',
          finishedAt: '2026-11-29T13:05:00+08:00',
          moves: 41,
          players: [
            { id: 'alice', result: 'win' },
            { id: 'bob', result: 'loss' },
          ],
        });
        expect(engine.ingestLine(line).kind).toBe('accepted');
        const out = JSON.parse([...engine.render()].join(''));
        // d = 0, equal: gain 10
        expect(out).toEqual({
          ladders: {
            'qq-gomoku': {
              players: {
                alice: {
                  rating: 10,
                  games: 1,
                  wins: 1,
                  losses: 0,
                  draws: 0,
                  ranked: true,
                  title: '1级',
                },
                bob: {
                  rating: -10,
                  games: 1,
                  wins: 0,
                  losses: 1,
                  draws: 0,
                  ranked: true,
                  title: '2级',
                },
              },
            },
          },
          rejected: [],
          void: [],
        });
      });
    });
  });
});
