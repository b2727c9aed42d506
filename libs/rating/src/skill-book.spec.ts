import fc from 'fast-check';
import {
  type GameResult,
  type LadderEvent,
  parseEvent,
  type PlayerReport,
} from '@ranking/contracts';
import {
  ladderRegistry,
  LadderFold,
  type LadderOutcome,
  rateMatch,
  type Skill,
  SKILL_PRIOR,
} from '@ranking/rating';
import { loss, win } from './reports.fixture.js';

// Which games the skill estimate counts, and how a correction moves it (skill-book.ts, ADR 19):
// with nothing played since, as if the game had had its corrected result from the start; with
// later games, the mean by the difference and the uncertainty by the ratio of the game's own
// effect, computed from the estimates saved before it.

const LADDERS = ladderRegistry();
const XQ = 'qq-xiangqi';
const PEOPLE = ['ann', 'bob', 'cat', 'dan', 'eve'] as const;
const START = Date.parse('2026-11-20T10:00:00+08:00');

let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Parses an event literal as the fold receives it. */
function parsed(event: Record<string, unknown>): LadderEvent {
  const outcome = parseEvent(JSON.stringify(event));
  if (!outcome.ok) throw new Error(`fixture is not a valid event: ${outcome.rejection.detail}`);
  return outcome.event;
}

function game(
  ladder: string,
  players: PlayerReport[],
  at: number,
  extra: Record<string, unknown> = {},
): LadderEvent {
  return parsed({
    id: nextId('ev'),
    type: 'game.finished',
    ladder,
    gameId: nextId('g'),
    finishedAt: iso(at),
    moves: 60,
    players,
    ...extra,
  });
}

/** A qq-xiangqi game: `a` moves first; `result` is a's. */
function xiangqi(a: string, b: string, result: GameResult, at: number, moves = 60): LadderEvent {
  const other = { win: 'loss', loss: 'win', draw: 'draw' } as const;
  return game(
    XQ,
    [
      { id: a, result, first: true },
      { id: b, result: other[result], first: false },
    ],
    at,
    { moves },
  );
}

const gameIdOf = (e: LadderEvent): string => (e as { gameId: string }).gameId;

function correct(
  of: LadderEvent,
  at: number,
  change: { void: true } | { players: PlayerReport[] },
): LadderEvent {
  return parsed({
    id: nextId('fix'),
    type: 'game.corrected',
    ladder: of.ladder,
    gameId: gameIdOf(of),
    correctedAt: iso(at),
    ...change,
  });
}

/** Folds events into one ladder's fold with the skill estimate; the last outcome too. */
function foldAll(events: readonly LadderEvent[]): { fold: LadderFold; last: LadderOutcome } {
  const fold = new LadderFold(LADDERS.get(events[0]!.ladder)!, { skill: true, keepLog: true });
  let last: LadderOutcome | null = null;
  for (const e of events) last = fold.evolve(e);
  return { fold, last: last! };
}

/** Every player's estimate (mu, sigma), by id; players never counted hold the prior. */
function estimates(fold: LadderFold, ids: readonly string[] = PEOPLE): Record<string, Skill> {
  return Object.fromEntries(
    ids.map((id) => {
      const { mu, sigma } = fold.skill!.skillOf(id);
      return [id, { mu, sigma }];
    }),
  );
}

const ONE_V_ONE = (first: number, second: number) => ({
  sides: [[0], [1]],
  places: [first, second],
});

describe('SkillBook: what counts', () => {
  it.each([
    [
      'igame-gomoku, both players on one address (same-ip)',
      () =>
        game(
          'igame-gomoku',
          [win('ann', { ip: '10.0.0.9' }), loss('bob', { ip: '10.0.0.9' })],
          START,
        ),
    ],
    ['qq-xiangqi, one move (too-short)', () => xiangqi('ann', 'bob', 'win', START, 1)],
    [
      'xinbo-go territory, nine moves (too-short)',
      () =>
        game('xinbo-go', [win('ann', { side: 'black' }), loss('bob', { side: 'white' })], START, {
          moves: 9,
        }),
    ],
  ])(
    'Given a void game (%s), When folded, Then the estimate is unchanged and the game is saved',
    (_name, make) => {
      // Given / When
      const event = make();
      const { fold, last } = foldAll([event]);
      // Then
      expect(last.status).toBe('void');
      expect(fold.skill!.players.size).toBe(0);
      expect(estimates(fold, ['ann', 'bob'])).toEqual({ ann: SKILL_PRIOR, bob: SKILL_PRIOR });
      const { mu, sigma } = SKILL_PRIOR;
      expect(fold.skill!.savedGame(gameIdOf(event))).toEqual({
        finishedAt: START,
        players: ['ann', 'bob'],
        skills: [mu, sigma, mu, sigma, mu, sigma, mu, sigma],
      });
    },
  );

  it('Given a qq-gomoku game across a gap of 200 (result only: no points move), When folded, Then the estimate counts it', () => {
    // Given
    const fold = new LadderFold(LADDERS.get('qq-gomoku')!, { skill: true });
    fold.setPlayer({ ...fold.player('ann'), rating: 300 });
    // When
    const outcome = fold.evolve(game('qq-gomoku', [loss('ann'), win('bob')], START));
    // Then: points stay, the estimate moves as for any game bob won.
    expect(outcome).toMatchObject({ status: 'applied', changes: [{ delta: 0 }, { delta: 0 }] });
    const [ann, bob] = rateMatch([SKILL_PRIOR, SKILL_PRIOR], ONE_V_ONE(2, 1));
    expect(estimates(fold, ['ann', 'bob'])).toEqual({ ann, bob });
  });

  it('Given a xinbo capture game of a territory-stage player (wrong kind: result only), When folded, Then the estimate counts it', () => {
    // Given: ann reached the territory stage.
    const fold = new LadderFold(LADDERS.get('xinbo-go')!, { skill: true });
    fold.setPlayer({ ...fold.player('ann'), territory: true, level: 14, rating: 2200 });
    // When
    const outcome = fold.evolve(
      game('xinbo-go', [win('ann', { captures: 3 }), loss('bob', { captures: 1 })], START, {
        context: { kind: 'capture', captureTarget: 3 },
      }),
    );
    // Then
    expect(outcome).toMatchObject({
      status: 'applied',
      changes: [{ player: 'ann', delta: 0, why: { kind: 'wrong-kind' } }, { player: 'bob' }],
    });
    const [ann, bob] = rateMatch([SKILL_PRIOR, SKILL_PRIOR], ONE_V_ONE(1, 2));
    expect(estimates(fold, ['ann', 'bob'])).toEqual({ ann, bob });
  });

  it('Given mal beat ann after `since`, When mal is annulled, Then the estimate is as if that game had never counted, and the annulment reports who moved', () => {
    // Given
    const g1 = xiangqi('ann', 'bob', 'win', START);
    const g2 = xiangqi('mal', 'ann', 'win', START + 86_400_000);
    const g3 = xiangqi('ann', 'bob', 'win', START + 2 * 86_400_000);
    const annul = parsed({
      id: nextId('annul'),
      type: 'player.annulled',
      ladder: XQ,
      player: 'mal',
      since: iso(START + 43_200_000),
      annulledAt: iso(START + 3 * 86_400_000),
    });
    const before = foldAll([g1, g2, g3]).fold;
    // When
    const { fold, last } = foldAll([g1, g2, g3, annul]);
    // Then
    const without = foldAll([g1, g3]).fold;
    expect(estimates(fold, ['ann', 'bob', 'mal'])).toEqual(
      estimates(without, ['ann', 'bob', 'mal']),
    );
    // The covered game is saved as not counted: each player's after equals their before.
    const saved = fold.skill!.savedGame(gameIdOf(g2))!.skills;
    expect([saved[2], saved[3], saved[6], saved[7]]).toEqual([
      saved[0],
      saved[1],
      saved[4],
      saved[5],
    ]);
    const moved = estimates(before, ['ann', 'bob', 'mal']);
    const now = estimates(fold, ['ann', 'bob', 'mal']);
    expect(last.status === 'applied' ? last.skill : null).toEqual([
      { player: 'ann', before: moved.ann, after: now.ann },
      { player: 'bob', before: moved.bob, after: now.bob },
      { player: 'mal', before: moved.mal, after: SKILL_PRIOR },
    ]);
    // The same log folded whole with its annulment known gives the same estimate.
    const whole = LadderFold.fromLog(LADDERS.get(XQ)!, [g1, g2, g3, annul], undefined, {
      skill: true,
    });
    expect(estimates(whole, ['ann', 'bob', 'mal'])).toEqual(now);
  });
});

describe('SkillBook: corrections', () => {
  const results: GameResult[] = ['win', 'loss', 'draw'];
  const pairs = PEOPLE.flatMap((a) => PEOPLE.filter((b) => b !== a).map((b) => [a, b] as const));
  /** A history of games among everyone. */
  const historyArb = fc.array(
    fc.record({ pair: fc.constantFrom(...pairs), result: fc.constantFrom(...results) }),
    { maxLength: 25 },
  );
  /** Games that do not involve ann or bob. */
  const othersArb = fc.array(
    fc.record({
      pair: fc.constantFrom(
        ...pairs.filter(([a, b]) => ![a, b].some((p) => p === 'ann' || p === 'bob')),
      ),
      result: fc.constantFrom(...results),
    }),
    { maxLength: 10 },
  );
  const gamesOf = (
    played: { pair: readonly [string, string]; result: GameResult }[],
    from: number,
  ) => played.map(({ pair: [a, b], result }, i) => xiangqi(a, b, result, from + i * 60_000));

  it('Given any history, a game of ann and bob and games of others since, When the game is corrected, Then the estimate equals the fold where it had its corrected result from the start', () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.constantFrom(...results),
        othersArb,
        fc.constantFrom(...results),
        (history, played, others, corrected) => {
          // Given
          const before = gamesOf(history, START);
          const at = START + 86_400_000;
          const g = xiangqi('ann', 'bob', played, at);
          const since = gamesOf(others, at + 60_000);
          const other = { win: 'loss', loss: 'win', draw: 'draw' } as const;
          const fix = correct(g, at + 86_400_000, {
            players: [
              { id: 'ann', result: corrected },
              { id: 'bob', result: other[corrected] },
            ],
          });
          // When
          const { fold } = foldAll([...before, g, ...since, fix]);
          // Then: exactly the same numbers.
          const asCorrected = xiangqi('ann', 'bob', corrected, at);
          const fromStart = foldAll([
            ...before,
            { ...asCorrected, gameId: gameIdOf(g) } as LadderEvent,
            ...since,
          ]).fold;
          expect(estimates(fold)).toEqual(estimates(fromStart));
          expect(fold.skill!.savedGame(gameIdOf(g))).toEqual(
            fromStart.skill!.savedGame(gameIdOf(g)),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('Given any history, a game of ann and bob and games of others since, When the game is voided, Then ann and bob hold the estimates they held before it', () => {
    fc.assert(
      fc.property(historyArb, fc.constantFrom(...results), othersArb, (history, played, others) => {
        // Given
        const before = gamesOf(history, START);
        const at = START + 86_400_000;
        const g = xiangqi('ann', 'bob', played, at);
        const since = gamesOf(others, at + 60_000);
        const held = estimates(foldAll([...before, g]).fold, ['ann', 'bob']);
        const prior = before.length === 0 ? null : estimates(foldAll(before).fold, ['ann', 'bob']);
        // When
        const { fold, last } = foldAll([
          ...before,
          g,
          ...since,
          correct(g, at + 86_400_000, { void: true }),
        ]);
        // Then
        expect(estimates(fold, ['ann', 'bob'])).toEqual(
          prior ?? { ann: SKILL_PRIOR, bob: SKILL_PRIOR },
        );
        // And as a game void from the start (one move) would leave everyone.
        const voidFromStart = foldAll([
          ...before,
          xiangqi('ann', 'bob', played, at, 1),
          ...since,
        ]).fold;
        expect(estimates(fold)).toEqual(estimates(voidFromStart));
        expect(last).toMatchObject({
          status: 'applied',
          skill: [
            { player: 'ann', before: held.ann },
            { player: 'bob', before: held.bob },
          ],
        });
      }),
      { numRuns: 100 },
    );
  });

  it('Given ann played cat after the game, When the game is corrected, Then ann moves by the difference of mean and the ratio of sigma, bob as from the start, and cat not at all', () => {
    // Given
    const g1 = xiangqi('ann', 'bob', 'win', START);
    const g2 = xiangqi('ann', 'cat', 'loss', START + 60_000);
    const fix = correct(g1, START + 120_000, { players: [loss('ann'), win('bob')] });
    const held = estimates(foldAll([g1, g2]).fold, ['ann', 'bob', 'cat']);
    // When
    const { fold, last } = foldAll([g1, g2, fix]);
    // Then: the game's effect as played and as corrected, from the saved priors.
    const [wasAnn] = rateMatch([SKILL_PRIOR, SKILL_PRIOR], ONE_V_ONE(1, 2));
    const [nowAnn, nowBob] = rateMatch([SKILL_PRIOR, SKILL_PRIOR], ONE_V_ONE(2, 1));
    const ann = {
      mu: held.ann!.mu + (nowAnn!.mu - wasAnn!.mu),
      sigma: held.ann!.sigma * (nowAnn!.sigma / wasAnn!.sigma),
    };
    expect(estimates(fold, ['ann', 'bob', 'cat'])).toEqual({ ann, bob: nowBob, cat: held.cat });
    expect(ann.mu).toBeLessThan(held.ann!.mu);
    expect(last).toMatchObject({
      status: 'applied',
      skill: [
        { player: 'ann', before: held.ann, after: ann },
        { player: 'bob', before: held.bob, after: nowBob },
      ],
    });
  });

  it('Given a corrected game, When it is corrected again, Then the second correction is relative to the first', () => {
    // Given: g1 won by ann, corrected to bob's win, while ann played cat since.
    const g1 = xiangqi('ann', 'bob', 'win', START);
    const g2 = xiangqi('ann', 'cat', 'win', START + 60_000);
    const first = correct(g1, START + 120_000, { players: [loss('ann'), win('bob')] });
    const held = estimates(foldAll([g1, g2, first]).fold, ['ann']).ann!;
    // When: corrected to a draw.
    const second = correct(g1, START + 180_000, {
      players: [
        { id: 'ann', result: 'draw' },
        { id: 'bob', result: 'draw' },
      ],
    });
    const { fold } = foldAll([g1, g2, first, second]);
    // Then
    const [lost] = rateMatch([SKILL_PRIOR, SKILL_PRIOR], ONE_V_ONE(2, 1));
    const [drew, bob] = rateMatch([SKILL_PRIOR, SKILL_PRIOR], ONE_V_ONE(1, 1));
    expect(estimates(fold, ['ann', 'bob'])).toEqual({
      ann: { mu: held.mu + (drew!.mu - lost!.mu), sigma: held.sigma * (drew!.sigma / lost!.sigma) },
      bob,
    });
  });

  it('Given a game void on arrival, When it is corrected, Then the estimate does not move', () => {
    const g = xiangqi('ann', 'bob', 'win', START, 1);
    const { fold, last } = foldAll([
      g,
      correct(g, START + 60_000, { players: [loss('ann'), win('bob')] }),
    ]);
    expect(estimates(fold, ['ann', 'bob'])).toEqual({ ann: SKILL_PRIOR, bob: SKILL_PRIOR });
    expect(last).toMatchObject({ status: 'applied', changes: [] });
  });
});
