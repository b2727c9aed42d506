import {
  type GameResult,
  type LadderEvent,
  type PlayerReport,
  parseEvent,
} from '@ranking/contracts';
import {
  LadderFold,
  ladderRegistry,
  newPlayer,
  type PlayerSnapshot,
  ReplayEngine,
  settingOf,
} from '@ranking/rating';
import { cardPoints } from './card-points.js';
import { CARD_POINTS_PARAMS } from './card-points-params.js';

// RULES.md "card-points" (seed 001_*: 五十K). Teams are seat parity: seats 0 and 2 against
// 1 and 3. card = tablePoints (+20 first out, −20 and −handPoints for holders as the rules say).
// Every expected number is worked out by hand in the comment beside it.

const LADDERS = ladderRegistry();
const FIFTY_K = LADDERS.get('qq-fifty-k')!;

let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;

function gameLine(players: PlayerReport[]): Record<string, unknown> {
  return {
    id: nextId('ev'),
    type: 'game.finished',
    ladder: 'qq-fifty-k',
    gameId: nextId('g'),
    finishedAt: '2026-03-02T21:00:00+08:00',
    moves: 60,
    players,
  };
}

function parsed(line: Record<string, unknown>): LadderEvent {
  const outcome = parseEvent(JSON.stringify(line));
  if (!outcome.ok) throw new Error(`fixture is not a valid event: ${outcome.rejection.detail}`);
  return outcome.event;
}

/** One card player: seat, table points, finish order (null = still holding), hand points. */
const c = (
  id: string,
  seat: number,
  tablePoints: number,
  finishOrder: number | null,
  handPoints = 0,
  extra: Partial<PlayerReport> = {},
): PlayerReport => ({ id, seat, tablePoints, finishOrder, handPoints, ...extra });

interface Folded {
  rating: Record<string, number>;
  result: Record<string, GameResult | null>;
  fold: LadderFold;
}

/** Folds one hand into a fresh ladder; returns each player's rating and derived result. */
function play(players: PlayerReport[]): Folded {
  const fold = new LadderFold(FIFTY_K);
  const outcome = fold.evolve(parsed(gameLine(players)));
  if (outcome.status !== 'applied')
    throw new Error(`expected the hand to apply, got ${JSON.stringify(outcome)}`);
  return {
    rating: Object.fromEntries(players.map((q) => [q.id, fold.player(q.id).rating])),
    result: Object.fromEntries(outcome.changes.map((ch) => [ch.player, ch.result])),
    fold,
  };
}

function rejection(players: PlayerReport[]): string | null {
  const fold = new LadderFold(FIFTY_K);
  const outcome = fold.evolve(parsed(gameLine(players)));
  if (outcome.status !== 'rejected') return null;
  for (const q of players) expect(fold.player(q.id)).toEqual(newPlayer(q.id, FIFTY_K));
  expect(fold.accepted).toBe(0);
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

// ---------------------------------------------------------------- module exports

describe('card-points module exports', () => {
  it('has the bonuses of seed 001 and takes 3 or 4 players on a 0.5-step ladder', () => {
    expect(CARD_POINTS_PARAMS.defaults).toEqual({ firstOutBonus: 20, lastOutPenalty: 20 });
    expect(cardPoints.name).toBe('card-points');
    expect(cardPoints.playerCounts).toEqual([3, 4]);
    expect(cardPoints.keepsRating).toBe(true);
    expect(cardPoints.outputFields(newPlayer('a', FIFTY_K))).toEqual({});
    expect(FIFTY_K.precision).toBe(0.5);
    expect(FIFTY_K.startRating).toBe(0);
  });

  describe('requiredFields', () => {
    const none = settingOf(undefined);
    const full = [c('a', 0, 0, 1), c('b', 1, 0, null), c('c', 2, 0, 2), c('d', 3, 0, null)];
    it.each(['seat', 'tablePoints', 'finishOrder', 'handPoints'] as const)(
      'Given a player without %s, Then it names the field',
      (field) => {
        const players = full.map((q) => ({ ...q }));
        delete players[2]![field];
        expect(cardPoints.requiredFields(players, none)).toContain(`/players/2/${field}`);
      },
    );
    it('Given finishOrder null, Then nothing is missing (null means still holding cards)', () => {
      expect(cardPoints.requiredFields(full, none)).toBeNull();
    });
    it('Given no results, Then nothing is missing (results are derived)', () => {
      expect(full.every((q) => q.result === undefined)).toBe(true);
      expect(cardPoints.requiredFields(full, none)).toBeNull();
    });
    it('Given a repeated seat, Then it is reported', () => {
      const players = [c('a', 0, 0, 1), c('b', 1, 0, null), c('c', 2, 0, 2), c('d', 1, 0, null)];
      expect(cardPoints.requiredFields(players, none)).not.toBeNull();
    });
  });

  it('Given a doubled four-player hand, When scored directly, Then why names card, team total and doubling', () => {
    const before: PlayerSnapshot = { rating: 0, level: 25, territory: false, dayTally: 0 };
    const score = cardPoints.score({
      ladder: FIFTY_K,
      moves: 60,
      setting: settingOf(undefined),
      players: [c('a', 0, 60, 1), c('b', 1, 0, null, 10), c('c', 2, 40, 2), c('d', 3, 0, null, 0)],
      before: [before, before, before, before],
    });
    expect(score.kind).toBe('scored');
    if (score.kind !== 'scored') return;
    // a 60 + 20 = 80, c 40 → team 120; b 0 − 20 − 10 = −30, d 0 − 20 = −20 → team −50.
    // Loser (b, d) won no table points and has no first place: doubled. 120/2·2 = 120; −50/2·2 = −50.
    expect(score.effects.map((e) => e.rating)).toEqual([120, -50, 120, -50]);
    expect(score.effects[0]!.why).toEqual({
      kind: 'card-points',
      card: 80,
      teamTotal: 120,
      doubled: true,
    });
    expect(score.effects[1]!.why).toEqual({
      kind: 'card-points',
      card: -30,
      teamTotal: -50,
      doubled: true,
    });
    expect(score.effects.map((e) => e.result)).toEqual(['win', 'loss', 'win', 'loss']);
  });
});

// ---------------------------------------------------------------- four players

describe('card-points: four players', () => {
  it('Given a sweep {1,2} by seats 0/2, Then both others pay 20 plus their hand, and the totals split evenly', () => {
    const { rating, result } = play([
      c('alice', 0, 30, 1),
      c('bob', 1, 40, null, 10),
      c('carol', 2, 20, 2),
      c('dave', 3, 10, null, 5),
    ]);
    // alice 30 + 20 = 50, carol 20 → 70. bob 40 − 20 − 10 = 10, dave 10 − 20 − 5 = −15 → −5.
    // 70 > −5: seats 0/2 win. Loser took 50 table points: no doubling. 70/2 = 35, −5/2 = −2.5.
    expect(rating).toEqual({ alice: 35, carol: 35, bob: -2.5, dave: -2.5 });
    expect(result).toEqual({ alice: 'win', carol: 'win', bob: 'loss', dave: 'loss' });
  });

  it('Given {1,2,3} with 1 and 2 on different teams, Then only the last player holding cards pays 20 plus hand', () => {
    const { rating, result } = play([
      c('alice', 0, 10, 1),
      c('bob', 1, 50, 2),
      c('carol', 2, 0, 3),
      c('dave', 3, 20, null, 15),
    ]);
    // alice 10 + 20 = 30, carol 0 → 30. bob 50, dave 20 − 20 − 15 = −15 → 35.
    // 35 > 30: seats 1/3 win. 35/2 = 17.5 each; the losers' 30 still gains 15 each.
    // No doubling: the losing team took 10 table points and holds first place.
    expect(rating).toEqual({ alice: 15, carol: 15, bob: 17.5, dave: 17.5 });
    expect(result).toEqual({ alice: 'loss', carol: 'loss', bob: 'win', dave: 'win' });
  });

  it('Given a losing team with a positive total, Then it gains half a point steps (12.5)', () => {
    const { rating, result } = play([
      c('alice', 0, 0, 1),
      c('bob', 1, 15, null, 0),
      c('carol', 2, 10, 2),
      c('dave', 3, 50, null, 0),
    ]);
    // alice 0 + 20 = 20, carol 10 → 30. bob 15 − 20 = −5, dave 50 − 20 = 30 → 25.
    // 30 > 25: seats 0/2 win; 30/2 = 15. Losers 25/2 = 12.5 each. Loser has table points: no doubling.
    expect(rating).toEqual({ alice: 15, carol: 15, bob: 12.5, dave: 12.5 });
    expect(result).toEqual({ alice: 'win', carol: 'win', bob: 'loss', dave: 'loss' });
  });

  it('Given equal team totals, Then the team of the first out wins', () => {
    const { rating, result } = play([
      c('alice', 0, 0, 1),
      c('bob', 1, 20, 2),
      c('carol', 2, 10, 3),
      c('dave', 3, 30, null, 0),
    ]);
    // alice 0 + 20 = 20, carol 10 → 30. bob 20, dave 30 − 20 − 0 = 10 → 30. Tie → alice's team.
    // Loser took 50 table points: no doubling. 15 each all round.
    expect(rating).toEqual({ alice: 15, carol: 15, bob: 15, dave: 15 });
    expect(result).toEqual({ alice: 'win', carol: 'win', bob: 'loss', dave: 'loss' });
  });

  it('Given equal totals with the first out on seats 1/3, Then seats 1/3 win', () => {
    const { result } = play([
      c('alice', 0, 20, 2),
      c('bob', 1, 0, 1),
      c('carol', 2, 30, null, 0),
      c('dave', 3, 10, 3),
    ]);
    // bob 0 + 20 = 20, dave 10 → 30. alice 20, carol 30 − 20 = 10 → 30. Tie → bob's team.
    expect(result).toEqual({ alice: 'loss', carol: 'loss', bob: 'win', dave: 'win' });
  });

  it('Given the losing team won no table points and holds no first place, Then both teams are doubled', () => {
    const { rating } = play([
      c('alice', 0, 60, 1),
      c('bob', 1, 0, null, 10),
      c('carol', 2, 40, 2),
      c('dave', 3, 0, null, 0),
    ]);
    // Team 0/2: 80 + 40 = 120. Team 1/3: (0 − 20 − 10) + (0 − 20) = −50. Doubled: 120/2·2 = 120, −50/2·2 = −50.
    expect(rating).toEqual({ alice: 120, carol: 120, bob: -50, dave: -50 });
  });

  it('Given doubling in a {1,2,3} hand, Then it also applies', () => {
    const { rating } = play([
      c('alice', 0, 50, 1),
      c('bob', 1, 0, 2),
      c('carol', 2, 50, 3),
      c('dave', 3, 0, null, 10),
    ]);
    // alice 50 + 20 = 70, carol 50 → 120. bob 0, dave 0 − 20 − 10 = −30 → −30.
    // Loser (1/3) took 0 table points and bob was second, not first: doubled → 120 and −30 each.
    expect(rating).toEqual({ alice: 120, carol: 120, bob: -30, dave: -30 });
  });

  it('Given the losing team won no table points but holds first place, Then nothing is doubled', () => {
    const { rating, result } = play([
      c('alice', 0, 0, 1),
      c('bob', 1, 60, 2),
      c('carol', 2, 0, null, 20),
      c('dave', 3, 40, 3),
    ]);
    // alice 0 + 20 = 20, carol 0 − 20 − 20 = −40 → −20. bob 60, dave 40 → 100.
    // 1/3 win. The losers took no table points but alice went out first: not doubled. −10 and 50 each.
    expect(rating).toEqual({ alice: -10, carol: -10, bob: 50, dave: 50 });
    expect(result).toEqual({ alice: 'loss', carol: 'loss', bob: 'win', dave: 'win' });
  });

  it('Given the losing team won table points, When the winners swept, Then nothing is doubled', () => {
    const { rating } = play([
      c('alice', 0, 60, 1),
      c('bob', 1, 5, null, 0),
      c('carol', 2, 40, 2),
      c('dave', 3, 0, null, 0),
    ]);
    // 80 + 40 = 120; (5 − 20) + (0 − 20) = −35. Loser took 5: no doubling. 60 each; −17.5 each.
    expect(rating).toEqual({ alice: 60, carol: 60, bob: -17.5, dave: -17.5 });
  });

  it('Given a team field that contradicts the seats, Then the seats decide the teams', () => {
    const { rating, result } = play([
      c('alice', 0, 30, 1, 0, { team: 'x' }),
      c('bob', 1, 40, null, 10, { team: 'x' }),
      c('carol', 2, 20, 2, 0, { team: 'y' }),
      c('dave', 3, 10, null, 5, { team: 'y' }),
    ]);
    // Same hand as the first sweep: 35, 35, −2.5, −2.5.
    expect(rating).toEqual({ alice: 35, carol: 35, bob: -2.5, dave: -2.5 });
    expect(result).toEqual({ alice: 'win', carol: 'win', bob: 'loss', dave: 'loss' });
  });

  it('Given players listed out of seat order, Then the seats still decide the teams', () => {
    const { rating } = play([
      c('dave', 3, 10, null, 5),
      c('carol', 2, 20, 2),
      c('bob', 1, 40, null, 10),
      c('alice', 0, 30, 1),
    ]);
    expect(rating).toEqual({ alice: 35, carol: 35, bob: -2.5, dave: -2.5 });
  });

  it('Given hand points reported for players who finished, Then they are ignored', () => {
    const { rating } = play([
      c('alice', 0, 30, 1, 25),
      c('bob', 1, 40, null, 10),
      c('carol', 2, 20, 2, 15),
      c('dave', 3, 10, null, 5),
    ]);
    // Same as the first sweep: alice's 25 and carol's 15 in hand do not count.
    expect(rating).toEqual({ alice: 35, carol: 35, bob: -2.5, dave: -2.5 });
  });

  it('Given odd hand points, Then team halves land on 0.5 steps', () => {
    const { rating } = play([
      c('alice', 0, 30, 1),
      c('bob', 1, 40, null, 7),
      c('carol', 2, 20, 2),
      c('dave', 3, 10, null, 0),
    ]);
    // 50 + 20 = 70 → 35 each. (40 − 20 − 7) + (10 − 20) = 13 − 10 = 3 → 1.5 each.
    expect(rating).toEqual({ alice: 35, carol: 35, bob: 1.5, dave: 1.5 });
  });

  it('Given stated results that agree with the hand, Then the hand applies', () => {
    const { rating } = play([
      c('alice', 0, 30, 1, 0, { result: 'win' }),
      c('bob', 1, 40, null, 10, { result: 'loss' }),
      c('carol', 2, 20, 2, 0, { result: 'win' }),
      c('dave', 3, 10, null, 5),
    ]);
    expect(rating).toEqual({ alice: 35, carol: 35, bob: -2.5, dave: -2.5 });
  });

  it.each([
    ['a winner stated as loss', 0, 'loss'],
    ['a loser stated as win', 1, 'win'],
    ['a draw', 2, 'draw'],
  ] as const)('Given %s, Then inconsistent-result', (_name, index, stated) => {
    const players = [
      c('alice', 0, 30, 1),
      c('bob', 1, 40, null, 10),
      c('carol', 2, 20, 2),
      c('dave', 3, 10, null, 5),
    ];
    players[index] = { ...players[index]!, result: stated };
    expect(rejection(players)).toBe('inconsistent-result');
  });

  it.each([
    ['{1,3}', [1, null, 3, null]],
    ['{1,2} split across teams', [1, 2, null, null]],
    ['{1,2,3} with 1 and 2 on one team', [1, 3, 2, null]],
    ['nobody out', [null, null, null, null]],
    ['{1}', [1, null, null, null]],
    ['{2,3}', [null, 2, 3, null]],
    ['{1,2,3,4}', [1, 2, 3, 4]],
    ['{1,1} on one team', [1, null, 1, null]],
  ] as const)('Given finish orders %s, Then inconsistent-result', (_name, orders) => {
    const players = orders.map((order, seat) => c(`p${seat}`, seat, 10, order, 5));
    expect(rejection(players)).toBe('inconsistent-result');
  });

  it.each(['seat', 'tablePoints', 'finishOrder', 'handPoints'] as const)(
    'Given a player without %s, Then invalid-event',
    (field) => {
      const players = [
        c('alice', 0, 30, 1),
        c('bob', 1, 40, null, 10),
        c('carol', 2, 20, 2),
        c('dave', 3, 10, null, 5),
      ];
      delete players[1]![field];
      expect(rejection(players)).toBe('invalid-event');
    },
  );

  it('Given a repeated seat, Then invalid-event', () => {
    expect(
      rejection([
        c('alice', 0, 30, 1),
        c('bob', 1, 40, null, 10),
        c('carol', 2, 20, 2),
        c('dave', 1, 10, null, 5),
      ]),
    ).toBe('invalid-event');
  });

  it('Given a missing field and a bad finish order, Then invalid-event comes before inconsistent-result', () => {
    const players = [
      c('alice', 0, 30, 1),
      c('bob', 1, 40, 3),
      c('carol', 2, 20, null),
      c('dave', 3, 10, null, 5),
    ];
    delete players[0]!.handPoints;
    expect(rejection(players)).toBe('invalid-event');
  });

  it('Given the same player twice, Then duplicate-player', () => {
    expect(
      rejection([
        c('alice', 0, 30, 1),
        c('bob', 1, 40, null, 10),
        c('alice', 2, 20, 2),
        c('dave', 3, 10, null, 5),
      ]),
    ).toBe('duplicate-player');
  });

  it('Given two players, Then wrong-player-count', () => {
    expect(rejection([c('alice', 0, 30, 1), c('bob', 1, 40, null, 10)])).toBe('wrong-player-count');
  });
});

// ---------------------------------------------------------------- three players

describe('card-points: three players', () => {
  it('Given a hand with clear places, Then 1st wins, 2nd draws, 3rd loses and each scores their own total', () => {
    const { rating, result, fold } = play([
      c('alice', 0, 20, 1),
      c('bob', 1, 30, 2),
      c('carol', 2, 10, null, 15),
    ]);
    // alice 20 + 20 = 40, bob 30, carol 10 − 20 − 15 = −25. Places alice, bob, carol.
    // Not doubled: bob (2nd) took 30 table points.
    expect(rating).toEqual({ alice: 40, bob: 30, carol: -25 });
    expect(result).toEqual({ alice: 'win', bob: 'draw', carol: 'loss' });
    expect(fold.player('bob')).toMatchObject({
      games: 1,
      draws: 1,
      wins: 0,
      losses: 0,
      ratedGames: 1,
    });
  });

  it('Given a tie between finished players, Then the earlier finisher places higher', () => {
    const { rating, result } = play([
      c('alice', 0, 0, 1),
      c('bob', 1, 20, 2),
      c('carol', 2, 60, null, 0),
    ]);
    // alice 0 + 20 = 20, bob 20, carol 60 − 20 = 40. carol 1st; alice and bob tie at 20: alice went out first → 2nd.
    // Not doubled: bob (3rd) took 20. A 3rd place with a positive total still gains.
    expect(result).toEqual({ carol: 'win', alice: 'draw', bob: 'loss' });
    expect(rating).toEqual({ alice: 20, bob: 20, carol: 40 });
  });

  it('Given a tie between a finished player and the holder, Then the finished player places higher', () => {
    const { result } = play([c('alice', 0, 0, 1), c('bob', 1, 10, 2), c('carol', 2, 30, null, 0)]);
    // alice 20, bob 10, carol 30 − 20 = 10. bob and carol tie at 10: bob finished, carol holds → bob 2nd.
    expect(result).toEqual({ alice: 'win', bob: 'draw', carol: 'loss' });
  });

  it('Given 2nd and 3rd won no table points, Then everyone is doubled', () => {
    const { rating, result } = play([
      c('alice', 0, 100, 1),
      c('bob', 1, 0, 2),
      c('carol', 2, 0, null, 10),
    ]);
    // alice 120, bob 0, carol 0 − 20 − 10 = −30. 2nd (bob) and 3rd (carol) took 0: doubled → 240, 0, −60.
    expect(rating).toEqual({ alice: 240, bob: 0, carol: -60 });
    expect(result).toEqual({ alice: 'win', bob: 'draw', carol: 'loss' });
  });

  it('Given doubling is decided by places, not finish order, Then a holder in 1st can double the others', () => {
    const { rating, result } = play([
      c('alice', 0, 0, 1),
      c('bob', 1, 0, 2),
      c('carol', 2, 80, null, 0),
    ]);
    // alice 20, bob 0, carol 80 − 20 = 60. Places carol, alice, bob; alice and bob took 0: doubled → 120, 40, 0.
    expect(rating).toEqual({ carol: 120, alice: 40, bob: 0 });
    expect(result).toEqual({ carol: 'win', alice: 'draw', bob: 'loss' });
  });

  it('Given only the 3rd won no table points, Then nothing is doubled', () => {
    const { rating } = play([c('alice', 0, 50, 1), c('bob', 1, 10, 2), c('carol', 2, 0, null, 5)]);
    // alice 70, bob 10, carol −25. bob (2nd) took 10: not doubled.
    expect(rating).toEqual({ alice: 70, bob: 10, carol: -25 });
  });

  it('Given hand points of finished players, Then they are ignored', () => {
    const { rating } = play([
      c('alice', 0, 20, 1, 40),
      c('bob', 1, 30, 2, 15),
      c('carol', 2, 10, null, 15),
    ]);
    // Same as the clear-places hand: 40, 30, −25.
    expect(rating).toEqual({ alice: 40, bob: 30, carol: -25 });
  });

  it('Given seats 1, 2 and 3, Then any three distinct seats are fine', () => {
    const { rating } = play([
      c('alice', 3, 20, 1),
      c('bob', 1, 30, 2),
      c('carol', 2, 10, null, 15),
    ]);
    expect(rating).toEqual({ alice: 40, bob: 30, carol: -25 });
  });

  it('Given stated results that agree, Then the hand applies; a disagreeing one is inconsistent-result', () => {
    const agree = [
      c('alice', 0, 20, 1, 0, { result: 'win' }),
      c('bob', 1, 30, 2, 0, { result: 'draw' }),
      c('carol', 2, 10, null, 15, { result: 'loss' }),
    ];
    expect(play(agree).rating).toEqual({ alice: 40, bob: 30, carol: -25 });
    const disagree = [
      c('alice', 0, 20, 1),
      c('bob', 1, 30, 2, 0, { result: 'win' }),
      c('carol', 2, 10, null, 15),
    ];
    expect(rejection(disagree)).toBe('inconsistent-result');
  });

  it.each([
    ['{1,3}', [1, 3, null]],
    ['{1,2,3}', [1, 2, 3]],
    ['{1}', [1, null, null]],
    ['{2,3}', [null, 2, 3]],
    ['nobody out', [null, null, null]],
  ] as const)('Given finish orders %s, Then inconsistent-result', (_name, orders) => {
    const players = orders.map((order, seat) => c(`p${seat}`, seat, 10, order, 5));
    expect(rejection(players)).toBe('inconsistent-result');
  });

  it.each(['seat', 'tablePoints', 'finishOrder', 'handPoints'] as const)(
    'Given a player without %s, Then invalid-event',
    (field) => {
      const players = [c('alice', 0, 20, 1), c('bob', 1, 30, 2), c('carol', 2, 10, null, 15)];
      delete players[2]![field];
      expect(rejection(players)).toBe('invalid-event');
    },
  );

  it('Given a repeated seat, Then invalid-event', () => {
    expect(rejection([c('alice', 0, 20, 1), c('bob', 0, 30, 2), c('carol', 2, 10, null, 15)])).toBe(
      'invalid-event',
    );
  });
});

// ---------------------------------------------------------------- replay

describe('card-points through the replay engine', () => {
  it('Given hands of four and three, When replayed and rendered, Then ratings are JSON numbers in 0.5 steps', () => {
    const lines = [
      // Sweep: alice/carol 35 each, bob/dave −2.5 each (see the four-player tests).
      gameLine([
        c('alice', 0, 30, 1),
        c('bob', 1, 40, null, 10),
        c('carol', 2, 20, 2),
        c('dave', 3, 10, null, 5),
      ]),
      // {1,2,3}: alice/carol lose but gain 15 each; bob/dave win 17.5 each.
      gameLine([
        c('alice', 0, 10, 1),
        c('bob', 1, 50, 2),
        c('carol', 2, 0, 3),
        c('dave', 3, 20, null, 15),
      ]),
      // Three players: alice 40 (win), bob 30 (draw), carol −25 (loss).
      gameLine([c('alice', 0, 20, 1), c('bob', 1, 30, 2), c('carol', 2, 10, null, 15)]),
      // Rejected: {1,3} is no finished hand.
      gameLine([c('alice', 0, 20, 1), c('bob', 1, 30, 3), c('carol', 2, 10, null, 15)]),
    ];
    const out = replay(lines);
    expect(out.rejected).toEqual([{ id: lines[3]!['id'], reason: 'inconsistent-result' }]);
    expect(out.ladders['qq-fifty-k']!.players).toEqual({
      alice: { rating: 90, games: 3, wins: 2, losses: 1, draws: 0, ranked: true }, // 35 + 15 + 40
      bob: { rating: 45, games: 3, wins: 1, losses: 1, draws: 1, ranked: true }, // −2.5 + 17.5 + 30
      carol: { rating: 25, games: 3, wins: 1, losses: 2, draws: 0, ranked: true }, // 35 + 15 − 25
      dave: { rating: 15, games: 2, wins: 1, losses: 1, draws: 0, ranked: true }, // −2.5 + 17.5
    });
  });

  it('Given a 12.5 result, When rendered, Then the text carries 12.5 as a number', () => {
    const engine = new ReplayEngine(LADDERS, { simulate: false });
    engine.ingestLine(
      JSON.stringify(
        gameLine([
          c('alice', 0, 0, 1),
          c('bob', 1, 15, null, 0),
          c('carol', 2, 10, 2),
          c('dave', 3, 50, null, 0),
        ]),
      ),
    );
    const text = [...engine.render()].join('');
    // Losers: (15 − 20) + (50 − 20) = 25 → 12.5 each.
    expect(text).toContain('"bob":{"rating":12.5,');
    expect(text).toContain('"dave":{"rating":12.5,');
  });
});
