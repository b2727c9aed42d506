import { type LadderEvent, parseEvent, type PlayerReport } from '@ranking/contracts';
import { ladderRegistry, LadderFold, type LadderOutcome, type Skill } from '@ranking/rating';
import { rate, rating } from 'openskill';
import { draw, loss, win } from './reports.fixture.js';

// How each rule set's games reach the skill estimate (ADR 19): the expected numbers come from
// openskill's own rate() on the teams and ranks the issue names, so a game folded into the
// wrong shape (sides, order or places) gives other numbers.

const LADDERS = ladderRegistry();
const P = rating();

let counter = 0;

/** A valid game.finished of a built-in ladder, parsed as the fold receives it. */
function game(
  ladder: string,
  players: PlayerReport[],
  extra: Record<string, unknown> = {},
): LadderEvent {
  counter += 1;
  const parsed = parseEvent(
    JSON.stringify({
      id: `ev-${counter}`,
      type: 'game.finished',
      ladder,
      gameId: `g-${counter}`,
      finishedAt: '2026-11-20T10:00:00+08:00',
      moves: 60,
      players,
      ...extra,
    }),
  );
  if (!parsed.ok) throw new Error(`fixture is not a valid event: ${parsed.rejection.detail}`);
  return parsed.event;
}

/** Folds one game into a fresh ladder (with the skill estimate); its outcome and the fold. */
function foldOne(event: LadderEvent): { outcome: LadderOutcome; fold: LadderFold } {
  const fold = new LadderFold(LADDERS.get(event.ladder)!, { skill: true });
  const outcome = fold.evolve(event);
  return { outcome, fold };
}

/** Each player's estimate after the game, by id. */
const skills = (fold: LadderFold, ids: readonly string[]): Record<string, Skill> =>
  Object.fromEntries(
    ids.map((id) => {
      const { mu, sigma } = fold.skill!.skillOf(id);
      return [id, { mu, sigma }];
    }),
  );

const plain = (r: { mu: number; sigma: number }): Skill => ({ mu: r.mu, sigma: r.sigma });

/** openskill on two new players, one versus one, with these ranks. */
function oneVersusOne(rank: [number, number]): [Skill, Skill] {
  const [[a], [b]] = rate([[P], [P]], { rank });
  return [plain(a), plain(b)];
}

describe('skill estimate: each rule set’s games as openskill sees them', () => {
  const two: [string, (a: string, b: string) => LadderEvent][] = [
    ['qq-gomoku (qq-points)', (a, b) => game('qq-gomoku', [win(a), loss(b)])],
    [
      'igame-gomoku (igame-elo)',
      (a, b) => game('igame-gomoku', [win(a, { ip: '10.0.0.1' }), loss(b, { ip: '10.0.0.2' })]),
    ],
    ['igame-gomoku-casual (record-only)', (a, b) => game('igame-gomoku-casual', [win(a), loss(b)])],
    [
      'qq-xiangqi (qq-elo)',
      (a, b) => game('qq-xiangqi', [win(a, { first: true }), loss(b, { first: false })]),
    ],
    [
      'xinbo-go (xinbo-points), a capture game',
      (a, b) =>
        game('xinbo-go', [win(a, { captures: 5, side: 'black' }), loss(b, { captures: 2 })], {
          context: { kind: 'capture', captureTarget: 5 },
        }),
    ],
    [
      'qq-blokus (squares), two players',
      (a, b) => game('qq-blokus', [win(a, { remaining: 3 }), loss(b, { remaining: 20 })]),
    ],
  ];

  it.each(two)(
    'Given a two-player game of %s, When ann beats bob, Then it counts as one versus one with ann first',
    (_name, make) => {
      // Given / When
      const { outcome, fold } = foldOne(make('ann', 'bob'));
      // Then
      const [ann, bob] = oneVersusOne([1, 2]);
      expect(skills(fold, ['ann', 'bob'])).toEqual({ ann, bob });
      expect(ann.mu).toBeGreaterThan(P.mu);
      expect(outcome).toMatchObject({
        status: 'applied',
        skill: [
          { player: 'ann', before: plain(P), after: ann },
          { player: 'bob', before: plain(P), after: bob },
        ],
      });
    },
  );

  it('Given a two-player draw (qq-xiangqi), When folded, Then both sides share first place', () => {
    const { fold } = foldOne(
      game('qq-xiangqi', [draw('ann', { first: true }), draw('bob', { first: false })]),
    );
    const [ann, bob] = oneVersusOne([1, 1]);
    expect(skills(fold, ['ann', 'bob'])).toEqual({ ann, bob });
    expect(ann).toEqual(bob);
  });

  it('Given a four-player squares game listed red, red, blue, blue, When red wins, Then it counts as two teams of two by team (not by seat order)', () => {
    // Given: team order differs from the players' index parity.
    const event = game('qq-blokus', [
      win('ann', { team: 'red', remaining: 2 }),
      win('cat', { team: 'red', remaining: 5 }),
      loss('bob', { team: 'blue', remaining: 30 }),
      loss('dan', { team: 'blue', remaining: 25 }),
    ]);
    // When
    const { fold } = foldOne(event);
    // Then
    const [[ann, cat], [bob, dan]] = rate(
      [
        [P, P],
        [P, P],
      ],
      { rank: [1, 2] },
    );
    expect(skills(fold, ['ann', 'cat', 'bob', 'dan'])).toEqual({
      ann: plain(ann),
      cat: plain(cat),
      bob: plain(bob),
      dan: plain(dan),
    });
    // Two teams of two move less than one versus one would.
    expect(ann.mu - P.mu).toBeLessThan(oneVersusOne([1, 2])[0].mu - P.mu);
  });

  it('Given a three-player card hand, When folded, Then it counts as a ranking of three by the derived places (not the finish order)', () => {
    // Given: alice 0 + 20 = 20 (out 1st), bob 20 (out 2nd), carol 60 − 20 = 40 (holding):
    // places carol 1st, alice 2nd (tie with bob, out earlier), bob 3rd.
    const event = game('qq-fifty-k', [
      { id: 'alice', seat: 0, tablePoints: 0, finishOrder: 1, handPoints: 0 },
      { id: 'bob', seat: 1, tablePoints: 20, finishOrder: 2, handPoints: 0 },
      { id: 'carol', seat: 2, tablePoints: 60, finishOrder: null, handPoints: 0 },
    ]);
    // When
    const { fold } = foldOne(event);
    // Then
    const [[alice], [bob], [carol]] = rate([[P], [P], [P]], { rank: [2, 3, 1] });
    expect(skills(fold, ['alice', 'bob', 'carol'])).toEqual({
      alice: plain(alice),
      bob: plain(bob),
      carol: plain(carol),
    });
    expect(carol.mu).toBeGreaterThan(alice.mu);
    expect(alice.mu).toBeGreaterThan(bob.mu);
  });

  it('Given a four-player card hand listed by seats 0, 2, 1, 3, When seats 1 and 3 win on points, Then it counts as the two seat-parity teams with the derived results', () => {
    // Given: alice (seat 0) out 1st, 10 + 20 = 30, carol (2) 0 → 30; bob (1) 50, dave (3)
    // 20 − 20 − 15 = −15 → 35: seats 1/3 win although seat 0 went out first. No stated results.
    const event = game('qq-fifty-k', [
      { id: 'alice', seat: 0, tablePoints: 10, finishOrder: 1, handPoints: 0 },
      { id: 'carol', seat: 2, tablePoints: 0, finishOrder: 3, handPoints: 0 },
      { id: 'bob', seat: 1, tablePoints: 50, finishOrder: 2, handPoints: 0 },
      { id: 'dave', seat: 3, tablePoints: 20, finishOrder: null, handPoints: 15 },
    ]);
    // When
    const { fold } = foldOne(event);
    // Then
    const [[alice, carol], [bob, dave]] = rate(
      [
        [P, P],
        [P, P],
      ],
      { rank: [2, 1] },
    );
    expect(skills(fold, ['alice', 'carol', 'bob', 'dave'])).toEqual({
      alice: plain(alice),
      carol: plain(carol),
      bob: plain(bob),
      dave: plain(dave),
    });
    expect(bob.mu).toBeGreaterThan(P.mu);
  });

  it('Given a xinbo tournament game (recorded: no counter moves), When folded, Then the estimate does not count it either (ADR 19)', () => {
    // Given
    const event = game(
      'xinbo-go',
      [win('ann', { side: 'black' }), loss('bob', { side: 'white' })],
      {
        context: { kind: 'territory', tournament: true },
      },
    );
    // When
    const { outcome, fold } = foldOne(event);
    // Then: neither the official state nor the estimate moves (the game is only kept).
    expect(outcome).toMatchObject({ status: 'applied', changes: [] });
    expect(fold.player('ann').games).toBe(0);
    expect(fold.skill!.players.has('ann')).toBe(false);
    expect(fold.skill!.players.has('bob')).toBe(false);
    expect(fold.skill!.savedGame((event as { gameId: string }).gameId)).toBeDefined();
  });
});
