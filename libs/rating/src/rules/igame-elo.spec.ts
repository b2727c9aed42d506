import type { PlayerReport } from '@ranking/contracts';
import {
  igameExpected,
  igameK,
  igameRating,
  type IngestResult,
  LadderFold,
  ladderRegistry,
  newPlayer,
  type PlayerState,
  ReplayEngine,
  tierCrossing,
} from '../index.js';

// RULES.md "igame-elo" (seed 002) and "Details the tests rely on". Every expected number is
// worked out by hand in the comment next to it. Values used repeatedly:
//   E(Dr) = 1/(10^(Dr/400) + 1) seen from the lower player:
//   10^(200/400) = 3.162278 -> E = 1/4.162278 = 0.240253 (higher: 0.759747)
//   equal ratings: E = 0.5, so K(S - E) is +K/2 for a win, -K/2 for a loss and 0 for a draw.
// Asia/Taipei is UTC+08:00 all year. Calendar used: Mon 2026-11-23 starts W48, Mon 2026-11-30
// starts W49, Mon 2026-12-28 starts W53 (ISO 2026 has 53 weeks), Mon 2027-01-04 starts 2027-W01.

const LADDERS = ladderRegistry();
const IGAME = LADDERS.get('igame-gomoku')!;

// ---------------------------------------------------------------- fixtures

/** `iso` (with +08:00) moved by `minutes`, written back with +08:00. */
function plus(iso: string, minutes: number): string {
  const local = Date.parse(iso) + minutes * 60_000 + 8 * 3_600_000;
  return `${new Date(local).toISOString().slice(0, 19)}+08:00`;
}

interface Seat {
  id: string;
  result: 'win' | 'loss' | 'draw';
  ip?: string;
  disconnected?: boolean;
}

interface Standing {
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  ranked: boolean;
  disconnects: number;
}

interface Output {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string; reason: string }[];
}

/** An igame-gomoku ladder fed through the offline replay, line by line. */
class Ladder {
  readonly engine: ReplayEngine;
  private n = 0;
  private readonly ips = new Map<string, string>();

  constructor(simulate: boolean) {
    this.engine = new ReplayEngine(LADDERS, { simulate });
  }

  private ipOf(id: string): string {
    if (!this.ips.has(id)) this.ips.set(id, `198.51.100.${this.ips.size + 1}`);
    return this.ips.get(id)!;
  }

  send(event: Record<string, unknown>): IngestResult {
    return this.engine.ingestLine(JSON.stringify(event));
  }

  /** One game; each seat gets its own ip unless given. Returns the event id. */
  game(at: string, a: Seat, b: Seat): string {
    this.n += 1;
    const id = `ev-${this.n}`;
    const seat = (s: Seat): PlayerReport => ({ ip: this.ipOf(s.id), ...s });
    const result = this.send({
      id,
      type: 'game.finished',
      ladder: IGAME.id,
      gameId: `g-${this.n}`,
      finishedAt: at,
      moves: 40,
      players: [seat(a), seat(b)],
    });
    expect(result.kind).toBe('accepted');
    return id;
  }

  /** `count` draws between two players, one a minute from `from` (equal ratings: no rating move). */
  draws(count: number, from: string, a = 'alice', b = 'bob', aDisconnects = false): void {
    for (let i = 0; i < count; i += 1) {
      this.game(
        plus(from, i),
        { id: a, result: 'draw', disconnected: aDisconnects },
        { id: b, result: 'draw' },
      );
    }
  }

  /** A game between a and b from the same ip: void on arrival. */
  sameIp(at: string, a = 'alice', b = 'bob', aDisconnects = false): string {
    return this.game(
      at,
      { id: a, result: 'win', ip: '203.0.113.7', disconnected: aDisconnects },
      { id: b, result: 'loss', ip: '203.0.113.7' },
    );
  }

  close(period: 'weekly' | 'monthly', key: string): void {
    const result = this.send({
      id: `period.closed:${IGAME.id}:${period}:${key}`,
      type: 'period.closed',
      ladder: IGAME.id,
      period,
      key,
      start: '2026-01-01T00:00:00+08:00', // informational only: the window comes from the key
      end: '2026-01-01T00:00:00+08:00',
    });
    expect(result.kind).toBe('accepted');
  }

  penalize(player: string, points: number, at: string, reason = 'disconnects'): void {
    this.n += 1;
    const result = this.send({
      id: `pen-${this.n}`,
      type: 'player.penalized',
      ladder: IGAME.id,
      player,
      points,
      reason,
      at,
    });
    expect(result.kind).toBe('accepted');
  }

  finish(until: string): void {
    this.engine.finish(Date.parse(until));
  }

  output(): Output {
    return JSON.parse([...this.engine.render()].join('')) as Output;
  }

  /** A player's line in the output (undefined when left out in the default state). */
  standing(id: string): Standing | undefined {
    return this.output().ladders[IGAME.id]?.players[id];
  }

  rating(id: string): number | undefined {
    return this.standing(id)?.rating;
  }

  /** The fold's full state of a player (counters not in the output). */
  state(id: string): PlayerState {
    return this.engine.ladderFolds.get(IGAME.id)!.player(id);
  }
}

/** A fold whose players already stand at the given ratings (for the Elo cases away from 1600). */
function givenRatings(ratings: Record<string, number>): LadderFold {
  return LadderFold.restore(IGAME, {
    ladder: IGAME.id,
    players: Object.entries(ratings).map(([id, rating]) => ({ ...newPlayer(id, IGAME), rating })),
    games: [],
    closed: [],
    accepted: 0,
  });
}

// ---------------------------------------------------------------- Elo

describe('igame-elo rating', () => {
  describe('given a at 1800 and b at 2000 (the seed-002 worked example)', () => {
    it('when a beats b then a has 1824 and b 1976', () => {
      // a: E = 0.240253, 1800 + 32(1 - 0.240253) = 1824.312 -> 1824
      // b: E = 0.759747, 2000 + 32(0 - 0.759747) = 1975.688 -> floor(1976.188) = 1976
      expect(igameRating(1800, 2000, 1)).toMatchObject({ rating: 1824, k: 32, rescale: null });
      expect(igameRating(2000, 1800, 0)).toMatchObject({ rating: 1976, k: 32, rescale: null });
      expect(igameExpected(1800, 2000).toFixed(3)).toBe('0.240');
      expect(igameExpected(2000, 1800).toFixed(3)).toBe('0.760');
    });

    it('when the game is folded then the ladder moves them to 1824 and 1976', () => {
      const fold = givenRatings({ a: 1800, b: 2000 });
      const outcome = fold.evolve({
        id: 'seed-002',
        type: 'game.finished',
        ladder: IGAME.id,
        gameId: 'g-seed',
        finishedAt: '2026-11-24T10:00:00+08:00',
        moves: 40,
        players: [
          { id: 'a', result: 'win', ip: '198.51.100.1' },
          { id: 'b', result: 'loss', ip: '198.51.100.2' },
        ],
      });
      expect(outcome.status).toBe('applied');
      expect([fold.player('a').rating, fold.player('b').rating]).toEqual([1824, 1976]);
    });
  });

  describe("given the seed's expected-score table", () => {
    it.each([
      // Dr, lower, higher: 1/(10^(Dr/400) + 1) and 1 - that
      [0, '0.500', '0.500'], // 1/2
      [50, '0.429', '0.571'], // 1/(1.333521 + 1) = 0.428537
      [100, '0.360', '0.640'], // 1/(1.778279 + 1) = 0.359935
      [150, '0.297', '0.703'], // 1/(2.371374 + 1) = 0.296615
      [200, '0.240', '0.760'], // 1/(3.162278 + 1) = 0.240253
      [250, '0.192', '0.808'], // 1/(4.216965 + 1) = 0.191682
      [300, '0.151', '0.849'], // 1/(5.623413 + 1) = 0.150979
      [350, '0.118', '0.882'], // 1/(7.498942 + 1) = 0.117662
      [400, '0.091', '0.909'], // 1/11 = 0.090909
      [450, '0.070', '0.930'], // 1/(13.335214 + 1) = 0.069758
      [500, '0.053', '0.947'], // 1/(17.782794 + 1) = 0.053240
      [550, '0.040', '0.960'], // 1/(23.713737 + 1) = 0.040463
      [600, '0.031', '0.969'], // 1/(31.622777 + 1) = 0.030653
      [650, '0.023', '0.977'], // 1/(42.169650 + 1) = 0.023164
      [700, '0.017', '0.983'], // 1/(56.234133 + 1) = 0.017472
      [750, '0.013', '0.987'], // 1/(74.989421 + 1) = 0.013160
      [800, '0.010', '0.990'], // 1/101 = 0.009901
    ])('when Dr = %d then the lower player expects %s and the higher %s', (dr, lower, higher) => {
      expect(igameExpected(1500, 1500 + dr).toFixed(3)).toBe(lower);
      expect(igameExpected(1500 + dr, 1500).toFixed(3)).toBe(higher);
      expect(igameExpected(1500, 1500 + dr) + igameExpected(1500 + dr, 1500)).toBeCloseTo(1, 12);
    });
  });

  describe('given K from the player own rating', () => {
    it.each([
      [0, 32],
      [1600, 32],
      [2099, 32],
      [2100, 24],
      [2399, 24],
      [2400, 16],
      [3000, 16],
    ])('when the rating is %d then K is %d', (rating, k) => {
      expect(igameK(rating)).toBe(k);
      expect(igameRating(rating, rating, 0.5).k).toBe(k);
    });

    it.each([
      // equal opponents, E = 0.5
      [2099, 0, 2083, '2099 - 32/2 = 2083, stays in [0,2100)'],
      [2100, 1, 2112, '2100 + 24/2 = 2112, stays in [2100,2400)'],
      [2399, 0, 2387, '2399 - 24/2 = 2387, stays in [2100,2400)'],
      [2400, 1, 2408, '2400 + 16/2 = 2408, stays in [2400,inf)'],
      [2400, 0.5, 2400, 'a draw between equals moves nothing'],
    ])(
      'when %d plays an equal opponent and scores %d then the rating is %d (%s)',
      (r, s, expected) => {
        expect(igameRating(r, r, s)).toMatchObject({ rating: expected, rescale: null });
      },
    );
  });

  describe('given a move that crosses a tier boundary B', () => {
    it.each([
      // [from, opp, score, boundary, factor, expected, arithmetic]
      [
        2090,
        2090,
        1,
        2100,
        0.75,
        2105,
        'up: Rn = 2090 + 16 = 2106; 2100 + 6 * 0.75 = 2104.5 -> floor(2105) = 2105',
      ],
      [
        2110,
        2110,
        0,
        2100,
        1.33,
        2097,
        'down: Rn = 2110 - 12 = 2098; 2100 - 2 * 1.33 = 2097.34 -> 2097',
      ],
      [
        2390,
        2390,
        1,
        2400,
        0.66,
        2401,
        'up: Rn = 2390 + 12 = 2402; 2400 + 2 * 0.66 = 2401.32 -> 2401',
      ],
      [
        2405,
        2405,
        0,
        2400,
        1.5,
        2396,
        'down: Rn = 2405 - 8 = 2397; 2400 - 3 * 1.5 = 2395.5 -> floor(2396) = 2396',
      ],
      [
        2099,
        2099,
        1,
        2100,
        0.75,
        2111,
        'up: Rn = 2099 + 16 = 2115; 2100 + 15 * 0.75 = 2111.25 -> 2111',
      ],
      [
        2399,
        2399,
        1,
        2400,
        0.66,
        2407,
        'up: Rn = 2399 + 12 = 2411; 2400 + 11 * 0.66 = 2407.26 -> 2407',
      ],
      [
        2080,
        2280,
        1,
        2100,
        0.75,
        2103,
        'up: Rn = 2080 + 32 * 0.759747 = 2104.312; 2100 + 4.312 * 0.75 = 2103.234 -> 2103',
      ],
      [
        2410,
        2210,
        0,
        2400,
        1.5,
        2397,
        'down: Rn = 2410 - 16 * 0.759747 = 2397.844; 2400 - 2.156 * 1.5 = 2396.766 -> 2397',
      ],
      [2084, 2084, 1, 2100, 0.75, 2100, 'up onto B: Rn = 2084 + 16 = 2100; 2100 + 0 * 0.75 = 2100'],
      [2388, 2388, 1, 2400, 0.66, 2400, 'up onto B: Rn = 2388 + 12 = 2400; 2400 + 0 * 0.66 = 2400'],
    ])(
      'when %d plays %d and scores %d then it is rescaled at %d by %d to %d (%s)',
      (from, opp, s, boundary, factor, expected) => {
        const next = igameRating(from, opp, s);
        expect(next.rating).toBe(expected);
        expect(next.rescale).toEqual({ boundary, factor });
      },
    );

    it('when the opponent of a crossing player stays in their tier then only the crossing one is rescaled', () => {
      // 2280 loses to 2080: K 24, Rn = 2280 - 24 * 0.759747 = 2261.766 -> floor(2262.266) = 2262
      expect(igameRating(2280, 2080, 0)).toMatchObject({ rating: 2262, k: 24, rescale: null });
      // 2210 beats 2410: K 24, Rn = 2210 + 24 * 0.759747 = 2228.234 -> 2228
      expect(igameRating(2210, 2410, 1)).toMatchObject({ rating: 2228, k: 24, rescale: null });
    });

    it('when a player crosses 2400 upwards then B is 2400, not the seed misprint 2100 (which would give 2299)', () => {
      // seed reading: 2100 + (2402 - 2100) * 0.66 = 2299.32, back under 2400; RULES.md decision: B = 2400
      expect(igameRating(2390, 2390, 1).rating).toBeGreaterThanOrEqual(2400);
    });

    it.each([
      [2090, 2106, { boundary: 2100, factor: 0.75 }],
      [2110, 2098, { boundary: 2100, factor: 1.33 }],
      [2390, 2402, { boundary: 2400, factor: 0.66 }],
      [2405, 2397, { boundary: 2400, factor: 1.5 }],
      [2099.9, 2100, { boundary: 2100, factor: 0.75 }],
      [2100, 2099.9, { boundary: 2100, factor: 1.33 }],
      [2399.9, 2400, { boundary: 2400, factor: 0.66 }],
      [2400, 2399.9, { boundary: 2400, factor: 1.5 }],
      [2000, 2050, null],
      [2100, 2399.9, null],
      [2399, 2100, null],
      [2400, 2500, null],
      [2500, 2400, null],
      [1600, 1600, null],
    ])('when a rating moves from %d to %d then tierCrossing is %j', (from, to, expected) => {
      expect(tierCrossing(from, to)).toEqual(expected);
    });
  });

  describe('given round(x) = floor(x + 0.5)', () => {
    it('when the rescaled rating is x.5 then it rounds up (2104.5 -> 2105; bankers or truncating rounding would give 2104)', () => {
      expect(igameRating(2090, 2090, 1).rating).toBe(2105);
    });

    it('when a downward rescale gives x.5 then it also rounds up (2395.5 -> 2396)', () => {
      expect(igameRating(2405, 2405, 0).rating).toBe(2396);
    });

    it('when the part below .5 is tiny then it rounds down (1975.688 -> 1976, 2097.34 -> 2097)', () => {
      expect(igameRating(2000, 1800, 0).rating).toBe(1976);
      expect(igameRating(2110, 2110, 0).rating).toBe(2097);
    });
  });
});

// ---------------------------------------------------------------- games on the ladder

describe('igame-gomoku games', () => {
  describe('given two new players at 1600', () => {
    it('when alice beats bob then the rating moves from game 1 (1616 / 1584) but nobody is ranked yet', () => {
      // equal: 1600 + 32 * 0.5 = 1616, 1600 - 16 = 1584
      const ladder = new Ladder(false);
      ladder.game(
        '2026-11-24T10:00:00+08:00',
        { id: 'alice', result: 'win' },
        { id: 'bob', result: 'loss' },
      );
      expect(ladder.output().ladders[IGAME.id]!.players).toEqual({
        alice: {
          rating: 1616,
          games: 1,
          wins: 1,
          losses: 0,
          draws: 0,
          ranked: false,
          disconnects: 0,
        },
        bob: {
          rating: 1584,
          games: 1,
          wins: 0,
          losses: 1,
          draws: 0,
          ranked: false,
          disconnects: 0,
        },
      });
    });

    it('when they have played 19 rated games then they are not ranked; after the 20th they are', () => {
      const ladder = new Ladder(false);
      ladder.draws(19, '2026-11-24T10:00:00+08:00');
      expect(ladder.standing('alice')).toMatchObject({ games: 19, ranked: false });
      ladder.draws(1, '2026-11-24T11:00:00+08:00');
      expect(ladder.standing('alice')).toMatchObject({
        games: 20,
        draws: 20,
        ranked: true,
        rating: 1600,
      });
      expect(ladder.standing('bob')).toMatchObject({ games: 20, ranked: true });
    });

    it('when they have 19 rated games and a void one then they are still not ranked', () => {
      const ladder = new Ladder(false);
      ladder.draws(19, '2026-11-24T10:00:00+08:00');
      ladder.sameIp('2026-11-24T11:00:00+08:00');
      expect(ladder.standing('alice')).toMatchObject({ games: 19, ranked: false });
      expect(ladder.state('alice').ratedGames).toBe(19);
    });
  });

  describe('given alice (1 disconnect, lost once) and bob, who then play from the same ip', () => {
    function scenario(): { ladder: Ladder; voidId: string; before: [PlayerState, PlayerState] } {
      const ladder = new Ladder(true);
      // alice disconnects and loses: 1584 / 1616
      ladder.game(
        '2026-11-24T10:00:00+08:00',
        { id: 'alice', result: 'loss', disconnected: true },
        { id: 'bob', result: 'win' },
      );
      const before: [PlayerState, PlayerState] = [ladder.state('alice'), ladder.state('bob')];
      const voidId = ladder.sameIp('2026-11-24T10:30:00+08:00', 'alice', 'bob', true);
      return { ladder, voidId, before };
    }

    it('when the same-ip game arrives then it is listed under void with reason same-ip', () => {
      const { ladder, voidId } = scenario();
      expect(ladder.output().void).toEqual([{ id: voidId, reason: 'same-ip' }]);
      expect(ladder.output().rejected).toEqual([]);
    });

    it('when the same-ip game arrives then no rating, record or counter moves', () => {
      const { ladder } = scenario();
      expect(ladder.output().ladders[IGAME.id]!.players).toEqual({
        alice: {
          rating: 1584,
          games: 1,
          wins: 0,
          losses: 1,
          draws: 0,
          ranked: false,
          disconnects: 1,
        },
        bob: {
          rating: 1616,
          games: 1,
          wins: 1,
          losses: 0,
          draws: 0,
          ranked: false,
          disconnects: 0,
        },
      });
    });

    it('when the same-ip game arrives then the disconnect counters and clean streaks are untouched', () => {
      const { ladder, before } = scenario();
      expect(ladder.state('alice')).toEqual(before[0]);
      expect(ladder.state('bob')).toEqual(before[1]);
      expect([ladder.state('alice').disconnects, ladder.state('alice').cleanStreak]).toEqual([
        1, 0,
      ]);
      expect([ladder.state('bob').disconnects, ladder.state('bob').cleanStreak]).toEqual([0, 1]);
    });
  });

  describe('given two players who report no ip at all', () => {
    it('when they play then the game is rated (no ip is not the same ip)', () => {
      const ladder = new Ladder(false);
      ladder.send({
        id: 'no-ip',
        type: 'game.finished',
        ladder: IGAME.id,
        gameId: 'g-no-ip',
        finishedAt: '2026-11-24T10:00:00+08:00',
        moves: 40,
        players: [
          { id: 'alice', result: 'win' },
          { id: 'bob', result: 'loss' },
        ],
      });
      expect(ladder.output().void).toEqual([]);
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1616, 1584]);
    });
  });
});

// ---------------------------------------------------------------- weekly quota

describe('igame-gomoku weekly quota (-30 for < 7 rated games in [Mon 06:00, next Mon 06:00))', () => {
  describe('given alice and bob drew 6 times on Tue 2026-11-24 (W48)', () => {
    it('when the clock reaches Mon 2026-11-30 05:59:59 then nothing is penalized yet', () => {
      const ladder = new Ladder(true);
      ladder.draws(6, '2026-11-24T10:00:00+08:00');
      ladder.finish('2026-11-30T05:59:59+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1600, 1600]);
    });

    it('when the week closes at Mon 06:00 then both lose 30 (1600 - 30 = 1570)', () => {
      const ladder = new Ladder(true);
      ladder.draws(6, '2026-11-24T10:00:00+08:00');
      ladder.finish('2026-11-30T05:59:59+08:00');
      ladder.finish('2026-11-30T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
    });

    it('when their 7th game ends at Mon 2026-11-30 05:59 local then it belongs to W48 and nobody is penalized', () => {
      const ladder = new Ladder(true);
      ladder.draws(6, '2026-11-24T10:00:00+08:00');
      ladder.draws(1, '2026-11-30T05:59:00+08:00');
      ladder.finish('2026-11-30T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1600, 1600]);
    });

    it('when their 7th game ends at Mon 2026-11-30 06:00 then it belongs to W49: W48 had 6, so 1570', () => {
      const ladder = new Ladder(true);
      ladder.draws(6, '2026-11-24T10:00:00+08:00');
      ladder.draws(1, '2026-11-30T06:00:00+08:00'); // the close runs first; the draw of equals moves nothing
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
      expect(ladder.standing('alice')!.games).toBe(7);
    });

    it('when their 7th game is void (same ip) then it does not count: 1570', () => {
      const ladder = new Ladder(true);
      ladder.draws(6, '2026-11-24T10:00:00+08:00');
      ladder.sameIp('2026-11-25T10:00:00+08:00');
      ladder.finish('2026-11-30T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
    });
  });

  describe('given alice and bob drew exactly 7 times in W48', () => {
    it('when the week closes then nobody is penalized', () => {
      const ladder = new Ladder(true);
      ladder.draws(7, '2026-11-24T10:00:00+08:00');
      ladder.finish('2026-11-30T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1600, 1600]);
    });
  });

  describe('given alice and bob drew 7 times in W47 and not at all in W48', () => {
    it('when W47 and W48 close then only W48 costs 30 (games do not carry over): 1570', () => {
      const ladder = new Ladder(true);
      ladder.draws(7, '2026-11-17T10:00:00+08:00');
      ladder.finish('2026-11-30T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
    });
  });

  describe('given erin and frank drew once in W48 and carol and dave first played at W48 end (Mon 2026-11-30 06:00)', () => {
    it('when period.closed W48 arrives afterwards then only erin and frank are penalized', () => {
      const ladder = new Ladder(false);
      ladder.draws(1, '2026-11-29T23:00:00+08:00', 'erin', 'frank');
      ladder.draws(1, '2026-11-30T06:00:00+08:00', 'carol', 'dave');
      ladder.draws(1, '2026-12-01T10:00:00+08:00', 'gina', 'hal');
      ladder.close('weekly', '2026-W48');
      // erin/frank: 1 < 7 rated games, first game before the end: 1600 - 30 = 1570
      // carol/dave, gina/hal: first rated game not before the week's end: untouched
      const out = ladder.output().ladders[IGAME.id]!.players;
      expect([out['erin']!.rating, out['frank']!.rating]).toEqual([1570, 1570]);
      expect([out['carol']!.rating, out['dave']!.rating]).toEqual([1600, 1600]);
      expect([out['gina']!.rating, out['hal']!.rating]).toEqual([1600, 1600]);
    });
  });

  describe('given erin and frank drew 4 times in W48', () => {
    it('when W48 closes then each change says why: 4 of the quota of 7 games, -30', () => {
      const ladder = new Ladder(false);
      ladder.draws(4, '2026-11-27T10:00:00+08:00', 'erin', 'frank');
      const result = ladder.send({
        id: 'period.closed:w48',
        type: 'period.closed',
        ladder: IGAME.id,
        period: 'weekly',
        key: '2026-W48',
        start: '2026-11-23T06:00:00+08:00',
        end: '2026-11-30T06:00:00+08:00',
      });
      if (result.kind !== 'accepted' || result.outcome.status !== 'applied')
        throw new Error(`not applied: ${JSON.stringify(result)}`);
      expect(result.outcome.changes.map((c) => [c.player, c.why])).toEqual([
        [
          'erin',
          { kind: 'penalty', reason: 'weekly-quota', points: -30, floor: 100, played: 4, quota: 7 },
        ],
        [
          'frank',
          { kind: 'penalty', reason: 'weekly-quota', points: -30, floor: 100, played: 4, quota: 7 },
        ],
      ]);
    });
  });

  describe('given a week that spans a month end (W49: Mon 2026-11-30 .. Mon 2026-12-07)', () => {
    it('when 3 games fall in November and 4 in December then the week has 7: no weekly penalty', () => {
      const ladder = new Ladder(true);
      ladder.draws(3, '2026-11-30T10:00:00+08:00');
      ladder.draws(4, '2026-12-02T10:00:00+08:00');
      // closes up to 12-07 06:00: November (played in it), W49 (7 games)
      ladder.finish('2026-12-07T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1600, 1600]);
    });

    it('when 3 games fall in November and 3 in December then the week has 6: 1570', () => {
      const ladder = new Ladder(true);
      ladder.draws(3, '2026-11-30T10:00:00+08:00');
      ladder.draws(3, '2026-12-02T10:00:00+08:00');
      ladder.finish('2026-12-07T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
    });
  });

  describe('given ISO week 53 (2026-W53: Mon 2026-12-28 06:00 .. Mon 2027-01-04 06:00)', () => {
    it('when 4 games fall in 2026 and 3 in 2027 then the week has 7: no penalty at its close', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, '2026-12-28T10:00:00+08:00');
      ladder.draws(3, '2027-01-03T10:00:00+08:00');
      // closes: December at 2027-01-01 06:00 (played in it), W53 at 2027-01-04 06:00 (7 games)
      ladder.finish('2027-01-04T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1600, 1600]);
    });

    it('when the 7th game ends at Mon 2027-01-04 05:59 then it still counts for 2026-W53', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, '2026-12-28T10:00:00+08:00');
      ladder.draws(2, '2027-01-03T10:00:00+08:00');
      ladder.draws(1, '2027-01-04T05:59:00+08:00');
      ladder.finish('2027-01-04T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1600, 1600]);
    });

    it('when only 6 games fall in it then both lose 30 at its close: 1570', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, '2026-12-28T10:00:00+08:00');
      ladder.draws(2, '2027-01-03T10:00:00+08:00');
      ladder.finish('2027-01-04T05:59:59+08:00');
      expect(ladder.rating('alice')).toBe(1600);
      ladder.finish('2027-01-04T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
    });

    it('when period.closed 2026-W53 arrives then games on both sides of New Year count (3 + 3 -> 1570, 4 + 3 -> 1600)', () => {
      const ladder = new Ladder(false);
      ladder.draws(3, '2026-12-29T10:00:00+08:00');
      ladder.draws(3, '2027-01-02T10:00:00+08:00');
      ladder.draws(4, '2026-12-29T12:00:00+08:00', 'carol', 'dave');
      ladder.draws(3, '2027-01-02T12:00:00+08:00', 'carol', 'dave');
      ladder.close('weekly', '2026-W53');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1570, 1570]);
      expect([ladder.rating('carol'), ladder.rating('dave')]).toEqual([1600, 1600]);
    });
  });
});

// ---------------------------------------------------------------- monthly

describe('igame-gomoku monthly inactivity (-200 when no rated game in the local calendar month)', () => {
  describe('given alice and bob drew once on Sat 2026-10-31 and never again', () => {
    it('when the clock reaches 2026-12-01 05:59:59 then only the weekly closes have run: 1450', () => {
      // W44 (1 game) and W45..W48 (0 games): 5 * -30 = -150 -> 1450;
      // October closed at 11-01 06:00 (they played in it); November closes only at 12-01 06:00
      const ladder = new Ladder(true);
      ladder.draws(1, '2026-10-31T12:00:00+08:00');
      ladder.finish('2026-12-01T05:59:59+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1450, 1450]);
    });

    it('when November closes at 06:00 on 1 December then both lose 200: 1450 - 200 = 1250', () => {
      const ladder = new Ladder(true);
      ladder.draws(1, '2026-10-31T12:00:00+08:00');
      ladder.finish('2026-12-01T05:59:59+08:00');
      ladder.finish('2026-12-01T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1250, 1250]);
    });
  });

  describe('given games around the turn of November (explicit period.closed events)', () => {
    function scenario(): Ladder {
      const ladder = new Ladder(false);
      ladder.draws(1, '2026-10-15T12:00:00+08:00', 'alice', 'bob'); // October only
      ladder.draws(1, '2026-10-15T12:00:00+08:00', 'carol', 'dave'); // October ...
      ladder.draws(1, '2026-12-01T03:00:00+08:00', 'carol', 'dave'); // ... and 03:00 on 1 December
      ladder.draws(1, '2026-11-30T23:59:59+08:00', 'erin', 'frank'); // the last second of November
      return ladder;
    }

    it('when November closes then alice/bob and carol/dave lose 200 (the 03:00 game is December) and erin/frank do not', () => {
      const ladder = scenario();
      ladder.close('monthly', '2026-11');
      expect(
        ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map((p) => ladder.rating(p)),
      ).toEqual([1400, 1400, 1400, 1400, 1600, 1600]);
    });

    it('when December closes too then carol/dave keep 1400 (their 03:00 game counts for December), the others lose 200', () => {
      const ladder = scenario();
      ladder.close('monthly', '2026-11');
      ladder.close('monthly', '2026-12');
      // alice/bob: 1400 - 200 = 1200; erin/frank: 1600 - 200 = 1400
      expect(
        ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map((p) => ladder.rating(p)),
      ).toEqual([1200, 1200, 1400, 1400, 1400, 1400]);
    });
  });

  describe('given gina and hal whose first rated game is at 03:00 on 1 December (after November ended, before it closed)', () => {
    it('when November closes at 06:00 then they are not penalized (no rated game before the month end)', () => {
      const ladder = new Ladder(true);
      ladder.draws(1, '2026-11-30T10:00:00+08:00', 'alice', 'bob'); // starts the clock in November
      ladder.draws(1, '2026-12-01T03:00:00+08:00', 'gina', 'hal');
      ladder.finish('2026-12-01T06:00:00+08:00');
      expect(['alice', 'bob', 'gina', 'hal'].map((p) => ladder.rating(p))).toEqual([
        1600, 1600, 1600, 1600,
      ]);
    });
  });

  describe('given alice and bob drew once on Mon 2026-11-30 (W49, November) and never again', () => {
    function scenario(): Ladder {
      const ladder = new Ladder(true);
      ladder.draws(1, '2026-11-30T10:00:00+08:00');
      return ladder;
    }

    it('when the clock reaches 2026-12-31 23:59 then W49..W52 cost 4 * 30: 1480', () => {
      // November closed at 12-01 06:00 without penalty (they played in it)
      const ladder = scenario();
      ladder.finish('2026-12-31T23:59:00+08:00');
      expect(ladder.rating('alice')).toBe(1480);
    });

    it('when December closes at 2027-01-01 06:00 then they lose 200: 1480 - 200 = 1280', () => {
      const ladder = scenario();
      ladder.finish('2027-01-01T05:59:59+08:00');
      expect(ladder.rating('alice')).toBe(1480);
      ladder.finish('2027-01-01T06:00:00+08:00');
      expect(ladder.rating('alice')).toBe(1280);
    });

    it('when 2026-W53 closes at 2027-01-04 06:00 then they lose 30 more: 1250', () => {
      const ladder = scenario();
      ladder.finish('2027-01-04T05:59:59+08:00');
      expect(ladder.rating('alice')).toBe(1280);
      ladder.finish('2027-01-04T06:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('bob')]).toEqual([1250, 1250]);
    });
  });
});

// ---------------------------------------------------------------- penalty floor

describe('igame-gomoku penalty floor (100, for every penalty)', () => {
  /** alice, bob, carol, dave draw once in W48; alice and carol are then brought down by penalties. */
  function scenario(aliceTo: number, carolTo: number): Ladder {
    const ladder = new Ladder(false);
    ladder.draws(1, '2026-11-24T10:00:00+08:00', 'alice', 'bob');
    ladder.draws(1, '2026-11-24T10:00:00+08:00', 'carol', 'dave');
    ladder.penalize('alice', aliceTo - 1600, '2026-11-24T11:00:00+08:00', 'ops');
    ladder.penalize('carol', carolTo - 1600, '2026-11-24T11:00:00+08:00', 'ops');
    expect([ladder.rating('alice'), ladder.rating('carol')]).toEqual([aliceTo, carolTo]);
    return ladder;
  }

  describe('given alice at 110 and carol at 250 after one W48 game each', () => {
    it('when W48 closes then alice stops at 100 (110 - 30 = 80) and carol has 220; bob and dave 1570', () => {
      const ladder = scenario(110, 250);
      ladder.close('weekly', '2026-W48');
      expect(['alice', 'carol', 'bob', 'dave'].map((p) => ladder.rating(p))).toEqual([
        100, 220, 1570, 1570,
      ]);
    });

    it('when December then closes (no December game) then alice at 100 is not penalized and carol stops at 100 (220 - 200 = 20)', () => {
      const ladder = scenario(110, 250);
      ladder.close('weekly', '2026-W48');
      ladder.close('monthly', '2026-12');
      // bob, dave: 1570 - 200 = 1370
      expect(['alice', 'carol', 'bob', 'dave'].map((p) => ladder.rating(p))).toEqual([
        100, 100, 1370, 1370,
      ]);
    });
  });

  describe('given alice at exactly 100 and carol at 101', () => {
    it('when W48 closes then alice stays 100 and carol stops at 100 (101 - 30 = 71)', () => {
      const ladder = scenario(100, 101);
      ladder.close('weekly', '2026-W48');
      expect([ladder.rating('alice'), ladder.rating('carol')]).toEqual([100, 100]);
    });

    it('when a -100 disconnect penalty arrives for each then alice stays 100 and carol stops at 100', () => {
      const ladder = scenario(100, 101);
      ladder.penalize('alice', -100, '2026-11-24T12:00:00+08:00');
      ladder.penalize('carol', -100, '2026-11-24T12:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('carol')]).toEqual([100, 100]);
    });
  });

  describe('given alice at 150 and carol at 250', () => {
    it('when a -100 disconnect penalty arrives for each then alice stops at 100 (not 50) and carol has 150', () => {
      const ladder = scenario(150, 250);
      ladder.penalize('alice', -100, '2026-11-24T12:00:00+08:00');
      ladder.penalize('carol', -100, '2026-11-24T12:00:00+08:00');
      expect([ladder.rating('alice'), ladder.rating('carol')]).toEqual([100, 150]);
    });
  });

  describe('given a player at 2110 who played in November', () => {
    function fold(): LadderFold {
      const f = givenRatings({});
      f.setPlayer({
        ...newPlayer('kim', IGAME),
        rating: 2110,
        games: 30,
        draws: 30,
        ratedGames: 30,
        firstRatedAt: Date.parse('2026-11-02T10:00:00+08:00'),
        monthGames: [{ key: '2026-11', count: 30 }],
      });
      return f;
    }

    it('when a -100 disconnect penalty arrives then the penalty is flat: 2010 (no x1.33 rescale, which would give 2087)', () => {
      const f = fold();
      f.evolve({
        id: 'pen',
        type: 'player.penalized',
        ladder: IGAME.id,
        player: 'kim',
        points: -100,
        reason: 'disconnects',
        at: '2026-11-24T12:00:00+08:00',
      });
      expect(f.player('kim').rating).toBe(2010);
    });

    it('when W48 closes (no W48 game) then the penalty is flat: 2110 - 30 = 2080', () => {
      const f = fold();
      f.close(f.calendar.window('weekly', '2026-W48'));
      expect(f.player('kim').rating).toBe(2080);
    });
  });
});

// ---------------------------------------------------------------- disconnects

describe('igame-gomoku disconnect counter', () => {
  const DAY = '2026-11-24T10:00:00+08:00';

  describe('given the offline replay simulates the maintenance service', () => {
    it('when alice disconnects in 4 games then her counter is 4 and nothing is penalized', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, DAY, 'alice', 'bob', true);
      expect(ladder.standing('alice')).toMatchObject({ rating: 1600, disconnects: 4, games: 4 });
      expect(ladder.standing('bob')).toMatchObject({ rating: 1600, disconnects: 0 });
    });

    it('when alice disconnects in a 5th game then the counter wraps to 0 and exactly one -100 applies: 1500', () => {
      const ladder = new Ladder(true);
      ladder.draws(5, DAY, 'alice', 'bob', true);
      expect(ladder.standing('alice')).toMatchObject({ rating: 1500, disconnects: 0, games: 5 });
      expect(ladder.standing('bob')).toMatchObject({ rating: 1600, disconnects: 0 });
      expect(ladder.state('alice').disconnectPenalties).toBe(1);
    });

    it('when the 5th game is delivered again (same id) then it is a duplicate and nothing more is penalized', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, DAY, 'alice', 'bob', true);
      const fifth = JSON.stringify({
        id: 'fifth',
        type: 'game.finished',
        ladder: IGAME.id,
        gameId: 'g-fifth',
        finishedAt: '2026-11-24T11:00:00+08:00',
        moves: 40,
        players: [
          { id: 'alice', result: 'draw', ip: '198.51.100.1', disconnected: true },
          { id: 'bob', result: 'draw', ip: '198.51.100.2' },
        ],
      });
      expect(ladder.engine.ingestLine(fifth).kind).toBe('accepted');
      expect(ladder.engine.ingestLine(fifth).kind).toBe('duplicate');
      expect(ladder.standing('alice')).toMatchObject({ rating: 1500, disconnects: 0, games: 5 });
    });

    it('when both players disconnect in the same games then each counter runs', () => {
      const ladder = new Ladder(true);
      for (let i = 0; i < 3; i += 1) {
        ladder.game(
          plus(DAY, i),
          { id: 'alice', result: 'draw', disconnected: true },
          { id: 'bob', result: 'draw', disconnected: true },
        );
      }
      expect([ladder.standing('alice')!.disconnects, ladder.standing('bob')!.disconnects]).toEqual([
        3, 3,
      ]);
    });

    it('when alice has 4 disconnects and 49 clean games then the counter is 4; the 50th clean game resets it to 0', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, DAY, 'alice', 'bob', true);
      ladder.draws(49, plus(DAY, 10));
      expect(ladder.standing('alice')!.disconnects).toBe(4);
      ladder.draws(1, plus(DAY, 100));
      expect(ladder.standing('alice')!.disconnects).toBe(0);
      // a new disconnect starts again from 0: 1, no penalty
      ladder.draws(1, plus(DAY, 110), 'alice', 'bob', true);
      expect(ladder.standing('alice')).toMatchObject({ disconnects: 1, rating: 1600, games: 55 });
    });

    it('when alice has 4 disconnects, 49 clean games and a void game then counter and streak are untouched; 1 more clean game resets', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, DAY, 'alice', 'bob', true);
      ladder.draws(49, plus(DAY, 10));
      ladder.sameIp(plus(DAY, 90)); // clean, but void
      expect([ladder.state('alice').disconnects, ladder.state('alice').cleanStreak]).toEqual([
        4, 49,
      ]);
      ladder.draws(1, plus(DAY, 100));
      expect(ladder.standing('alice')).toMatchObject({ disconnects: 0, rating: 1600, games: 54 });
    });

    it('when alice has 4 disconnects and disconnects in a void game then the counter stays 4 and nothing is penalized', () => {
      const ladder = new Ladder(true);
      ladder.draws(4, DAY, 'alice', 'bob', true);
      ladder.sameIp(plus(DAY, 10), 'alice', 'bob', true);
      expect(ladder.standing('alice')).toMatchObject({ disconnects: 4, rating: 1600, games: 4 });
      expect(ladder.state('alice').disconnectPenalties).toBe(0);
      // the next real disconnect is the 5th: -100
      ladder.draws(1, plus(DAY, 20), 'alice', 'bob', true);
      expect(ladder.standing('alice')).toMatchObject({ disconnects: 0, rating: 1500, games: 5 });
    });
  });

  describe('given the replay does not simulate the maintenance service', () => {
    it('when alice disconnects 5 times then the counter wraps to 0 but the -100 waits for player.penalized', () => {
      const ladder = new Ladder(false);
      ladder.draws(5, DAY, 'alice', 'bob', true);
      expect(ladder.standing('alice')).toMatchObject({ rating: 1600, disconnects: 0 });
      ladder.penalize('alice', -100, plus(DAY, 5));
      expect(ladder.standing('alice')).toMatchObject({ rating: 1500, disconnects: 0 });
    });
  });
});
