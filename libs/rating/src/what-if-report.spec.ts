import type { GameFinished } from '@ranking/contracts';
import { BUILT_IN_LADDERS, type LadderConfig } from './ladder-config.js';
import { LadderFold } from './ladder-fold.js';
import { newPlayer } from './player-state.js';
import { renderWhatIf, WHAT_IF_TOP, whatIfReport } from './what-if-report.js';

const builtIn = (id: string): LadderConfig => BUILT_IN_LADDERS.find((l) => l.id === id)!;
const gomoku = builtIn('qq-gomoku');

let serial = 0;
const game = (ladder: string, winner: string, loser: string, draw = false): GameFinished => {
  serial++;
  return {
    id: `e${serial}`,
    type: 'game.finished',
    ladder,
    gameId: `g${serial}`,
    finishedAt: `2026-11-29T13:${String(serial).padStart(2, '0')}:00+08:00`,
    moves: 40,
    players: [
      { id: winner, result: draw ? 'draw' : 'win' },
      { id: loser, result: draw ? 'draw' : 'loss' },
    ],
  };
};

/** The qq-gomoku log of the hand computation below. */
const log = [
  game('qq-gomoku', 'a', 'b'), // d 0: a +10, b -10
  game('qq-gomoku', 'a', 'c'), // a 10 v c 0, d 10, the higher wins: 10 - 1 = 9
  game('qq-gomoku', 'd', 'b'), // d 0 v b -10, the higher wins: 9
  game('qq-gomoku', 'c', 'e', true), // c -9 v e 0 drawn, floor(9/10) = 0
];

const folded = (ladder: LadderConfig, events: readonly GameFinished[]) => {
  const fold = new LadderFold(ladder);
  for (const event of events) expect(fold.evolve(event).status).toBe('applied');
  return fold;
};

describe('whatIfReport', () => {
  it('given a small log and a variant that starts at 50 and ranks after 2 games, then the figures computed by hand', () => {
    // As it is (start 0, ranked after 1): a 19, d 9, e 0, c -9, b -19, all ranked.
    // Variant: everyone 50 higher (qq-points moves by differences only); only a, b and c
    // (two games each) ranked: a 69, c 41, b 31.
    const report = whatIfReport(
      folded(gomoku, log),
      folded({ ...gomoku, startRating: 50, rankedAfter: 2 }, log),
    );
    expect(report.players).toEqual([
      {
        player: 'a',
        asIs: { rating: 19, rank: 1, title: '1级' },
        variant: { rating: 69, rank: 1, title: '1级' },
        change: 50,
      },
      {
        player: 'b',
        asIs: { rating: -19, rank: 5, title: '2级' },
        variant: { rating: 31, rank: 3, title: '1级' },
        change: 50,
      },
      {
        player: 'c',
        asIs: { rating: -9, rank: 4, title: '2级' },
        variant: { rating: 41, rank: 2, title: '1级' },
        change: 50,
      },
      {
        player: 'd',
        asIs: { rating: 9, rank: 2, title: '1级' },
        variant: { rating: 59, rank: null, title: '1级' },
        change: 50,
      },
      {
        player: 'e',
        asIs: { rating: 0, rank: 3, title: '1级' },
        variant: { rating: 50, rank: null, title: '1级' },
        change: 50,
      },
    ]);
    expect(report.summary).toEqual({
      players: 5,
      moved: 5,
      meanAbsoluteChange: 50,
      largestAbsoluteChange: 50,
      ranked: { asIs: 5, variant: 3, both: 3 },
      // a, c, b in the same order on both boards.
      kendallTau: 1,
      top: { size: WHAT_IF_TOP, left: ['d', 'e'], entered: [] },
    });
    expect(report.accepted).toEqual({ asIs: 4, variant: 4 });
  });

  it('given the same settings twice, then nobody moved and tau is 1', () => {
    const report = whatIfReport(folded(gomoku, log), folded({ ...gomoku }, log));
    expect(report.summary).toMatchObject({
      players: 5,
      moved: 0,
      meanAbsoluteChange: 0,
      largestAbsoluteChange: 0,
      kendallTau: 1,
      top: { left: [], entered: [] },
    });
    expect(report.players.every((p) => p.change === 0 && p.asIs.rank === p.variant.rank)).toBe(
      true,
    );
  });

  it('given boards whose orders differ, then tau, the mean and the largest change from hand-set ratings', () => {
    // Ranked players x, y, z; as is 300 > 200 > 100, the variant 300 > 100 < 250:
    // pairs (x,y) c, (x,z) c, (y,z) d, no ties: tau = (2 - 1) / 3.
    const asIs = new LadderFold(gomoku);
    const variant = new LadderFold(gomoku);
    const set = (fold: LadderFold, id: string, rating: number) =>
      fold.setPlayer({ ...newPlayer(id, gomoku), rating, games: 1, ratedGames: 1 });
    set(asIs, 'x', 300);
    set(asIs, 'y', 200);
    set(asIs, 'z', 100);
    set(variant, 'x', 300);
    set(variant, 'y', 100);
    set(variant, 'z', 250);
    const { summary } = whatIfReport(asIs, variant);
    expect(summary.kendallTau).toBeCloseTo(1 / 3, 12);
    expect(summary.moved).toBe(2);
    // |0| + |-100| + |150| over 3 players.
    expect(summary.meanAbsoluteChange).toBeCloseTo(250 / 3, 12);
    expect(summary.largestAbsoluteChange).toBe(150);
  });

  it('given a tie on a board, then players share a competition rank', () => {
    const fold = new LadderFold(gomoku);
    for (const [id, rating] of [
      ['p', 10],
      ['q', 20],
      ['r', 20],
      ['s', 5],
    ] as const)
      fold.setPlayer({ ...newPlayer(id, gomoku), rating, games: 1, ratedGames: 1 });
    const ranks = whatIfReport(fold, fold).players.map((p) => [p.player, p.asIs.rank]);
    expect(ranks).toEqual([
      ['p', 3],
      ['q', 1],
      ['r', 1],
      ['s', 4],
    ]);
  });

  it('given more than the top on the boards, then who leaves and enters it, best rank first', () => {
    const asIs = new LadderFold(gomoku);
    const variant = new LadderFold(gomoku);
    for (let i = 0; i < WHAT_IF_TOP + 2; i++) {
      const id = `p${String(i).padStart(3, '0')}`;
      const player = { ...newPlayer(id, gomoku), games: 1, ratedGames: 1 };
      asIs.setPlayer({ ...player, rating: 1000 - i });
      // The variant turns the board upside down.
      variant.setPlayer({ ...player, rating: i });
    }
    const { summary } = whatIfReport(asIs, variant);
    expect(summary.top).toEqual({ size: 100, left: ['p000', 'p001'], entered: ['p101', 'p100'] });
    expect(summary.kendallTau).toBe(-1);
  });

  it('given players in the default state on both sides, then they are left out', () => {
    const fold = new LadderFold(gomoku);
    fold.setPlayer(newPlayer('idle', gomoku));
    expect(whatIfReport(fold, fold).summary.players).toBe(0);
    expect(whatIfReport(fold, fold).summary.kendallTau).toBeNull();
  });

  it('given a report, then its JSON text has one player a line and parses back to it', () => {
    const report = whatIfReport(folded(gomoku, log), folded(gomoku, log));
    const text = [...renderWhatIf(report, { source: 'test' })].join('');
    expect(JSON.parse(text)).toEqual({ source: 'test', ...report });
    expect(text.split('\n').filter((l) => l.includes('"player"'))).toHaveLength(5);
  });
});
