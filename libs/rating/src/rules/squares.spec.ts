import { type LadderEvent, type PlayerReport, parseEvent } from '@ranking/contracts';
import {
  LadderFold,
  type LadderOutcome,
  ladderRegistry,
  newPlayer,
  type PlayerSnapshot,
  ReplayEngine,
  settingOf,
} from '@ranking/rating';
import { squares } from './squares.js';
import { SQUARES_PARAMS } from './squares-params.js';

// RULES.md "squares" (seed 001_*: 方格游戏积分规则). Expected numbers are worked out by hand.

const LADDERS = ladderRegistry();
const BLOKUS = LADDERS.get('qq-blokus')!;

let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;

function gameLine(players: PlayerReport[], moves = 42): Record<string, unknown> {
  return {
    id: nextId('ev'),
    type: 'game.finished',
    ladder: 'qq-blokus',
    gameId: nextId('g'),
    finishedAt: '2026-03-02T20:00:00+08:00',
    moves,
    players,
  };
}

function parsed(line: Record<string, unknown>): LadderEvent {
  const outcome = parseEvent(JSON.stringify(line));
  if (!outcome.ok) throw new Error(`fixture is not a valid event: ${outcome.rejection.detail}`);
  return outcome.event;
}

const game = (players: PlayerReport[]): LadderEvent => parsed(gameLine(players));

const p = (
  id: string,
  result: 'win' | 'loss' | 'draw',
  remaining: number,
  extra: Partial<PlayerReport> = {},
): PlayerReport => ({
  id,
  result,
  remaining,
  ...extra,
});

/** Folds one game into a fresh ladder and returns each player's rating change. */
function deltas(players: PlayerReport[]): Record<string, number> {
  const fold = new LadderFold(BLOKUS);
  const outcome = fold.evolve(game(players));
  expect(outcome.status).toBe('applied');
  return Object.fromEntries(players.map((q) => [q.id, fold.player(q.id).rating]));
}

const expectRejected = (outcome: LadderOutcome, code: string): void => {
  expect(outcome.status).toBe('rejected');
  if (outcome.status === 'rejected') expect(outcome.rejection.code).toBe(code);
};

function rejection(players: PlayerReport[]): string | null {
  const fold = new LadderFold(BLOKUS);
  const outcome = fold.evolve(game(players));
  if (outcome.status !== 'rejected') return null;
  // A rejected game moves nobody.
  for (const q of players) expect(fold.player(q.id)).toEqual(newPlayer(q.id, BLOKUS));
  return outcome.rejection.code;
}

interface Standing {
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  ranked: boolean;
}
interface ReplayOutput {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string | null; reason: string }[];
}

function replay(lines: Record<string, unknown>[]): ReplayOutput {
  const engine = new ReplayEngine(LADDERS, { simulate: false });
  for (const line of lines) engine.ingestLine(JSON.stringify(line));
  return JSON.parse([...engine.render()].join('')) as ReplayOutput;
}

describe('squares module exports', () => {
  it('has the points of seed 001', () => {
    expect(SQUARES_PARAMS.defaults).toMatchObject({
      winPoints: 20,
      teamPoints: 20,
      teamPerfectPoints: 30,
    });
    expect(squares.name).toBe('squares');
    expect(squares.playerCounts).toEqual([2, 4]);
    expect(squares.closes).toEqual([]);
    expect(squares.keepsRating).toBe(true);
    expect(squares.outputFields(newPlayer('a', BLOKUS))).toEqual({});
  });

  describe('requiredFields', () => {
    const none = settingOf(undefined);
    it('Given a player without remaining, Then it names the field', () => {
      expect(
        squares.requiredFields([p('a', 'win', 1), { id: 'b', result: 'loss' }], none),
      ).toContain('/players/1/remaining');
    });
    it('Given four players, one without team, Then it names the team', () => {
      const players = [
        p('a', 'win', 1, { team: 'x' }),
        p('b', 'loss', 5, { team: 'y' }),
        p('c', 'win', 2),
        p('d', 'loss', 6, { team: 'y' }),
      ];
      expect(squares.requiredFields(players, none)).toContain('/players/2/team');
    });
    it('Given two players without team, Then nothing is missing', () => {
      expect(squares.requiredFields([p('a', 'win', 1), p('b', 'loss', 3)], none)).toBeNull();
    });
    it('Given a player without result, Then it names the result', () => {
      expect(
        squares.requiredFields([{ id: 'a', remaining: 1 }, p('b', 'loss', 3)], none),
      ).toContain('/players/0/result');
    });
  });

  it('Given a cleared two-player win, When scored directly, Then the effects carry why and the points', () => {
    const before: PlayerSnapshot = { rating: 0, level: 25, territory: false, dayTally: 0 };
    const score = squares.score({
      ladder: BLOKUS,
      moves: 40,
      setting: settingOf(undefined),
      players: [p('a', 'win', 0, { perfect: true }), p('b', 'loss', 7)],
      before: [before, before],
    });
    expect(score.kind).toBe('scored');
    if (score.kind !== 'scored') return;
    // a: +20 +1 perfect = 21; b: winner cleared → −7 in full.
    expect(score.effects[0]).toMatchObject({ rating: 21, rated: 1, wins: 1, games: 1 });
    expect(score.effects[0]!.why).toEqual({
      kind: 'squares',
      remaining: 0,
      winnerCleared: true,
      perfect: true,
    });
    expect(score.effects[1]).toMatchObject({ rating: -7, rated: 1, losses: 1, games: 1 });
  });
});

describe('squares: two players', () => {
  it.each([
    // [winner remaining, loser remaining, winner Δ, loser Δ]
    [3, 9, 20, -5], // −ceil(9/2) = −5
    [3, 10, 20, -5], // −ceil(10/2) = −5
    [1, 1, 20, -1], // equal remaining is not "more": −ceil(1/2) = −1
    [2, 89, 20, -45], // −ceil(44.5) = −45
    [0, 9, 20, -9], // winner cleared: −9 in full
    [0, 10, 20, -10], // winner cleared: −10 in full
    [0, 0, 20, 0], // cleared, nothing left to lose
  ])(
    'Given the winner has %i left and the loser %i, Then the winner gets %i and the loser %i',
    (w, l, dw, dl) => {
      expect(deltas([p('alice', 'win', w), p('bob', 'loss', l)])).toEqual({ alice: dw, bob: dl });
    },
  );

  it('Given the loser is listed first, Then the order does not matter', () => {
    expect(deltas([p('bob', 'loss', 9), p('alice', 'win', 3)])).toEqual({ alice: 20, bob: -5 });
  });

  it.each([
    // [winner perfect, loser perfect, winner Δ, loser Δ]
    [true, false, 21, -5], // 20 + 1; −ceil(9/2)
    [false, true, 20, -4], // −5 + 1
    [true, true, 21, -4],
  ])('Given perfect %s/%s (完美一击), Then +1 whatever the result: %i and %i', (pw, pl, dw, dl) => {
    expect(
      deltas([p('alice', 'win', 3, { perfect: pw }), p('bob', 'loss', 9, { perfect: pl })]),
    ).toEqual({ alice: dw, bob: dl });
  });

  it('Given a draw, Then nothing moves but the perfect bonus', () => {
    expect(deltas([p('alice', 'draw', 4), p('bob', 'draw', 4)])).toEqual({ alice: 0, bob: 0 });
    expect(deltas([p('alice', 'draw', 0, { perfect: true }), p('bob', 'draw', 0)])).toEqual({
      alice: 1,
      bob: 0,
    });
  });

  it('Given ratings with no floor, When a player keeps losing, Then the rating goes negative and the record counts', () => {
    const fold = new LadderFold(BLOKUS);
    fold.evolve(game([p('alice', 'win', 0), p('bob', 'loss', 12)])); // bob −12
    fold.evolve(game([p('alice', 'win', 5), p('bob', 'loss', 11)])); // bob −ceil(5.5) = −6
    fold.evolve(game([p('alice', 'draw', 7), p('bob', 'draw', 7, { perfect: true })])); // bob +1
    expect(fold.player('alice')).toMatchObject({
      rating: 40,
      games: 3,
      wins: 2,
      draws: 1,
      ratedGames: 3,
    }); // 20 + 20 + 0
    expect(fold.player('bob')).toMatchObject({
      rating: -17,
      games: 3,
      losses: 2,
      draws: 1,
      ratedGames: 3,
    }); // −12 − 6 + 1
  });

  it('Given a winner with more remaining than the loser, Then inconsistent-result', () => {
    expect(rejection([p('alice', 'win', 6), p('bob', 'loss', 5)])).toBe('inconsistent-result');
  });

  it.each([
    ['win/win', 'win', 'win'],
    ['loss/loss', 'loss', 'loss'],
    ['win/draw', 'win', 'draw'],
  ] as const)('Given results %s, Then inconsistent-result', (_name, r1, r2) => {
    expect(rejection([p('alice', r1, 1), p('bob', r2, 5)])).toBe('inconsistent-result');
  });

  it('Given a missing remaining, Then invalid-event', () => {
    expect(rejection([p('alice', 'win', 1), { id: 'bob', result: 'loss' }])).toBe('invalid-event');
  });

  it('Given a missing result, Then invalid-event', () => {
    expect(rejection([{ id: 'alice', remaining: 0 }, p('bob', 'loss', 4)])).toBe('invalid-event');
  });

  it('Given a missing remaining and results win/win, Then invalid-event comes before inconsistent-result', () => {
    expect(rejection([p('alice', 'win', 1), { id: 'bob', result: 'win' }])).toBe('invalid-event');
  });

  it('Given the same player twice, Then duplicate-player', () => {
    expect(rejection([p('alice', 'win', 1), p('alice', 'loss', 4)])).toBe('duplicate-player');
  });

  it('Given three players, Then wrong-player-count (before any field check)', () => {
    expect(rejection([p('a', 'win', 1), p('b', 'loss', 4), p('c', 'loss', 5)])).toBe(
      'wrong-player-count',
    );
    expect(rejection([p('a', 'win', 1), { id: 'b' }, { id: 'c' }])).toBe('wrong-player-count');
  });
});

describe('squares: two teams of two', () => {
  const teams = (
    a: [string, number, Partial<PlayerReport>?][],
    results: ['win' | 'loss' | 'draw', 'win' | 'loss' | 'draw'],
  ) =>
    a.map(([id, remaining, extra], i) =>
      p(id, results[i % 2]!, remaining, { team: i % 2 === 0 ? 'red' : 'blue', ...extra }),
    );

  it('Given the red team wins with nobody cleared, Then each winner +10 and each loser −ceil(rem/2)', () => {
    // alice(red) 2, bob(blue) 8, carol(red) 6, dave(blue) 11.
    const players = teams(
      [
        ['alice', 2],
        ['bob', 8],
        ['carol', 6],
        ['dave', 11],
      ],
      ['win', 'loss'],
    );
    // 20 shared: +10 each; bob −ceil(8/2) = −4; dave −ceil(11/2) = −6.
    expect(deltas(players)).toEqual({ alice: 10, carol: 10, bob: -4, dave: -6 });
  });

  it('Given a winning member cleared all squares, Then +15 each and the losers pay in full', () => {
    const players = teams(
      [
        ['alice', 0],
        ['bob', 8],
        ['carol', 6],
        ['dave', 11],
      ],
      ['win', 'loss'],
    );
    // 30 shared: +15 each; bob −8, dave −11 in full.
    expect(deltas(players)).toEqual({ alice: 15, carol: 15, bob: -8, dave: -11 });
  });

  it('Given odd remainders and nobody cleared, Then each loser rounds half a square up', () => {
    const players = teams(
      [
        ['alice', 1],
        ['bob', 3],
        ['carol', 2],
        ['dave', 5],
      ],
      ['win', 'loss'],
    );
    // +10 each; bob −ceil(1.5) = −2; dave −ceil(2.5) = −3.
    expect(deltas(players)).toEqual({ alice: 10, carol: 10, bob: -2, dave: -3 });
  });

  it('Given both winners cleared, Then the team still shares 30 (+15 each)', () => {
    const players = teams(
      [
        ['alice', 0],
        ['bob', 3],
        ['carol', 0],
        ['dave', 5],
      ],
      ['win', 'loss'],
    );
    // +15 each; bob −3 and dave −5 in full.
    expect(deltas(players)).toEqual({ alice: 15, carol: 15, bob: -3, dave: -5 });
  });

  it('Given perfect players on both sides, Then each gets +1 on top', () => {
    const players = teams(
      [
        ['alice', 0],
        ['bob', 8, { perfect: true }],
        ['carol', 6, { perfect: true }],
        ['dave', 11],
      ],
      ['win', 'loss'],
    );
    // alice 15; carol 15 + 1 = 16; bob −8 + 1 = −7; dave −11.
    expect(deltas(players)).toEqual({ alice: 15, carol: 16, bob: -7, dave: -11 });
  });

  it('Given teams identified by the team field and not by order, Then the split follows the field', () => {
    const players = [
      p('alice', 'win', 3, { team: 'A' }),
      p('carol', 'win', 4, { team: 'A' }),
      p('bob', 'loss', 9, { team: 'B' }),
      p('dave', 'loss', 4, { team: 'B' }),
    ];
    // +10 each; bob −ceil(4.5) = −5; dave −ceil(4/2) = −2.
    expect(deltas(players)).toEqual({ alice: 10, carol: 10, bob: -5, dave: -2 });
  });

  it('Given a team draw, Then nothing moves but the perfect bonus', () => {
    const players = teams(
      [
        ['alice', 3],
        ['bob', 3, { perfect: true }],
        ['carol', 5],
        ['dave', 5],
      ],
      ['draw', 'draw'],
    );
    expect(deltas(players)).toEqual({ alice: 0, carol: 0, bob: 1, dave: 0 });
  });

  it('Given any winner with more remaining than any loser, Then inconsistent-result', () => {
    // carol (win) 9 > bob (loss) 8, although dave (loss) has 11.
    const players = teams(
      [
        ['alice', 2],
        ['bob', 8],
        ['carol', 9],
        ['dave', 11],
      ],
      ['win', 'loss'],
    );
    expect(rejection(players)).toBe('inconsistent-result');
  });

  it('Given teammates with different results, Then inconsistent-result', () => {
    const players = [
      p('alice', 'win', 2, { team: 'A' }),
      p('carol', 'loss', 6, { team: 'A' }),
      p('bob', 'loss', 8, { team: 'B' }),
      p('dave', 'loss', 11, { team: 'B' }),
    ];
    expect(rejection(players)).toBe('inconsistent-result');
  });

  it('Given both teams winning, Then inconsistent-result', () => {
    const players = teams(
      [
        ['alice', 2],
        ['bob', 8],
        ['carol', 6],
        ['dave', 11],
      ],
      ['win', 'win'],
    );
    expect(rejection(players)).toBe('inconsistent-result');
  });

  it('Given four players, one without team, Then invalid-event', () => {
    const players = teams(
      [
        ['alice', 2],
        ['bob', 8],
        ['carol', 6],
        ['dave', 11],
      ],
      ['win', 'loss'],
    );
    delete players[3]!.team;
    expect(rejection(players)).toBe('invalid-event');
  });

  it('Given four players, one without remaining, Then invalid-event', () => {
    const players = teams(
      [
        ['alice', 2],
        ['bob', 8],
        ['carol', 6],
        ['dave', 11],
      ],
      ['win', 'loss'],
    );
    delete players[1]!.remaining;
    expect(rejection(players)).toBe('invalid-event');
  });

  it('Given a missing team and teammates with different results, Then invalid-event comes first', () => {
    const players = [
      p('alice', 'win', 2, { team: 'A' }),
      p('carol', 'loss', 6, { team: 'A' }),
      p('bob', 'loss', 8, { team: 'B' }),
      { id: 'dave', result: 'loss' as const, remaining: 11 },
    ];
    expect(rejection(players)).toBe('invalid-event');
  });

  it('Given four players that do not form two teams of two, Then the game is rejected', () => {
    // RULES.md does not name the code for a 3 + 1 split; the module treats it as a field problem.
    const players = [
      p('alice', 'win', 2, { team: 'A' }),
      p('carol', 'win', 6, { team: 'A' }),
      p('erin', 'win', 6, { team: 'A' }),
      p('bob', 'loss', 8, { team: 'B' }),
    ];
    expect(rejection(players)).toEqual(
      expect.stringMatching(/^(invalid-event|inconsistent-result)$/),
    );
  });
});

describe('squares through the replay engine', () => {
  it('Given a mix of games, When replayed and rendered, Then ratings and records match the hand arithmetic', () => {
    const lines = [
      gameLine([p('alice', 'win', 0), p('bob', 'loss', 13)]), // alice +20, bob −13
      gameLine([p('bob', 'win', 2, { perfect: true }), p('alice', 'loss', 7)]), // bob +21, alice −4
      gameLine([
        p('alice', 'win', 1, { team: 'x' }),
        p('carol', 'win', 3, { team: 'x' }),
        p('bob', 'loss', 5, { team: 'y' }),
        p('dave', 'loss', 9, { team: 'y' }),
      ]), // alice +10, carol +10, bob −3, dave −5
      gameLine([p('carol', 'win', 9), p('dave', 'loss', 8)]), // rejected: winner has more left
      gameLine([p('carol', 'draw', 2), p('dave', 'draw', 2, { perfect: true })]), // dave +1
    ];
    const out = replay(lines);
    expect(out.rejected).toEqual([{ id: lines[3]!['id'], reason: 'inconsistent-result' }]);
    expect(out.void).toEqual([]);
    expect(out.ladders['qq-blokus']!.players).toEqual({
      alice: { rating: 26, games: 3, wins: 2, losses: 1, draws: 0, ranked: true }, // 20 − 4 + 10
      bob: { rating: 5, games: 3, wins: 1, losses: 2, draws: 0, ranked: true }, // −13 + 21 − 3
      carol: { rating: 10, games: 2, wins: 1, losses: 0, draws: 1, ranked: true }, // 10 + 0
      dave: { rating: -4, games: 2, wins: 0, losses: 1, draws: 1, ranked: true }, // −5 + 1
    });
  });

  it('Given a three-player line, When replayed, Then it is listed as wrong-player-count', () => {
    const line = gameLine([p('a', 'win', 1), p('b', 'loss', 4), p('c', 'loss', 5)]);
    const out = replay([line]);
    expect(out.rejected).toEqual([{ id: line['id'], reason: 'wrong-player-count' }]);
  });

  it('Given a rejected line re-sent with the same id after a fix, Then the fixed one is applied', () => {
    const bad = gameLine([p('a', 'win', 1), { id: 'b', result: 'loss' }]);
    const good = { ...bad, players: [p('a', 'win', 1), p('b', 'loss', 4)] };
    const out = replay([bad, good]);
    expect(out.rejected).toEqual([{ id: bad['id'], reason: 'invalid-event' }]);
    expect(out.ladders['qq-blokus']!.players['b']).toMatchObject({ rating: -2, losses: 1 }); // −ceil(4/2)
  });
});

describe('squares: the fold outcome', () => {
  it('Given a two-player game, When evolved, Then the changes list before, after and delta per player', () => {
    const fold = new LadderFold(BLOKUS);
    const outcome = fold.evolve(game([p('alice', 'win', 2), p('bob', 'loss', 7)]));
    expect(outcome.status).toBe('applied');
    if (outcome.status !== 'applied') return;
    expect(
      outcome.changes.map(({ player, before, after, delta, result }) => ({
        player,
        before,
        after,
        delta,
        result,
      })),
    ).toEqual([
      { player: 'alice', before: 0, after: 20, delta: 20, result: 'win' },
      { player: 'bob', before: 0, after: -4, delta: -4, result: 'loss' }, // −ceil(3.5)
    ]);
  });

  it('Given the rejection helper, Then it reports the right code', () => {
    const fold = new LadderFold(BLOKUS);
    expectRejected(
      fold.evolve(game([p('alice', 'win', 9), p('bob', 'loss', 2)])),
      'inconsistent-result',
    );
    expect(fold.accepted).toBe(0);
  });
});
