import type { GameFinished, GameResult } from '@ranking/contracts';
import {
  type DisconnectCounter,
  type LadderConfig,
  LadderFold,
  ladderRegistry,
  newPlayer,
  ReplayEngine,
  tallyDisconnects,
} from '../index.js';
import { ladderWith, opposite, pair, ratingsAfter } from './params.fixture.js';

// RULES.md "Rule-set parameters", igame-elo: k [<2100: 32, <2400: 24, else 16], eloScale 400,
// rescale [2100: up 0.75 down 1.33, 2400: up 0.66 down 1.5], weeklyQuota 7, weeklyPenalty −30,
// monthlyPenalty −200, floor 100, disconnectLimit 5, disconnectPenalty −100, cleanStreak 50.
// Each case runs on the built-in igame-gomoku and on it with one parameter changed.
// Asia/Taipei is UTC+08:00; Tue 2026-11-24 lies in 2026-W48.

const BUILT_IN = ladderWith('igame-gomoku');
const withParams = (params: Record<string, unknown>) => ladderWith('igame-gomoku', params);

let seq = 0;
/** A game of a against b with a's result; each player on their own ip. */
function game(
  a: string,
  b: string,
  resultOfA: GameResult,
  at = '2026-11-24T10:00:00+08:00',
  aDisconnected = false,
): GameFinished {
  seq += 1;
  return {
    id: `e-${seq}`,
    type: 'game.finished',
    ladder: 'igame-gomoku',
    gameId: `g-${seq}`,
    finishedAt: at,
    moves: 40,
    players: [
      { id: a, result: resultOfA, ip: `10.0.0.${a.length}`, disconnected: aDisconnected },
      { id: b, result: opposite(resultOfA), ip: `10.0.1.${b.length}` },
    ],
  };
}

/** a (at `ra`) plays b (at `rb`): both ratings after. */
function played(ladder: LadderConfig, ra: number, rb: number, resultOfA: GameResult) {
  const ratings = ratingsAfter(ladder, pair('a', 'b', resultOfA), { ratings: { a: ra, b: rb } });
  return [ratings['a'], ratings['b']];
}

/** `count` draws (no rating move between equals) of a and b in W48, then W48 closes. */
function weekOf(ladder: LadderConfig, games: Record<string, number>): Record<string, number> {
  const fold = new LadderFold(ladder);
  for (const [pair, count] of Object.entries(games)) {
    const [a, b] = pair.split('-') as [string, string];
    for (let i = 0; i < count; i++) fold.evolve(game(a, b, 'draw'));
  }
  fold.close(fold.calendar.window('weekly', '2026-W48'));
  return Object.fromEntries([...fold.players.values()].map((p) => [p.id, p.rating]));
}

describe('igame-elo parameters: the rating', () => {
  it('Given k [{below 1700, k 40}, {k 16}], When 1600 beats 1600, Then ±20 instead of ±16', () => {
    expect(played(BUILT_IN, 1600, 1600, 'win')).toEqual([1616, 1584]);
    const ladder = withParams({ k: [{ below: 1700, k: 40 }, { k: 16 }] });
    expect(played(ladder, 1600, 1600, 'win')).toEqual([1620, 1580]);
    // 1800 is past the first row: K 16 (32 by default): ±8.
    expect(played(ladder, 1800, 1800, 'win')).toEqual([1808, 1792]);
  });

  it('Given eloScale 800, When 1800 beats 2000, Then E = 1/(10^(200/800) + 1) = 0.359935', () => {
    // Default: 1824 and 1976 (the seed's example). Now 1800 + 32·0.640065 = 1820.48 → 1820;
    // 2000 − 20.48 = 1979.52 → 1980.
    expect(played(BUILT_IN, 1800, 2000, 'win')).toEqual([1824, 1976]);
    expect(played(withParams({ eloScale: 800 }), 1800, 2000, 'win')).toEqual([1820, 1980]);
  });

  it('Given rescale [], When 2090 beats 2090, Then nothing is rescaled: 2106 (2105 by default)', () => {
    expect(played(BUILT_IN, 2090, 2090, 'win')).toEqual([2105, 2074]);
    expect(played(withParams({ rescale: [] }), 2090, 2090, 'win')).toEqual([2106, 2074]);
  });

  it('Given boundaries 1610 and 1612, When moves cross both, Then the one nearest to R rescales', () => {
    const ladder = withParams({
      rescale: [
        { boundary: 1610, up: 0.5, down: 2 },
        { boundary: 1612, up: 0.25, down: 3 },
      ],
    });
    // 1600 → 1616 crosses 1610 then 1612: 1610 + 6·0.5 = 1613. 1600 → 1584 crosses none.
    expect(played(ladder, 1600, 1600, 'win')).toEqual([1613, 1584]);
    // 1615 → 1599 crosses 1612 then 1610: 1612 + (1599 − 1612)·3 = 1573. 1615 → 1631: none.
    expect(played(ladder, 1615, 1615, 'loss')).toEqual([1573, 1631]);
    expect(played(BUILT_IN, 1615, 1615, 'loss')).toEqual([1599, 1631]);
  });
});

describe('igame-elo parameters: quotas and penalties', () => {
  it('Given weeklyQuota 5, When W48 closes, Then 5 games escape the penalty that 4 games still get', () => {
    const games = { 'al-bo': 4, 'cy-di': 5 };
    // By default 7 are needed: all four pay 30.
    expect(weekOf(BUILT_IN, games)).toEqual({ al: 1570, bo: 1570, cy: 1570, di: 1570 });
    expect(weekOf(withParams({ weeklyQuota: 5 }), games)).toEqual({
      al: 1570,
      bo: 1570,
      cy: 1600,
      di: 1600,
    });
    // weeklyQuota 0: nobody is short.
    expect(weekOf(withParams({ weeklyQuota: 0 }), games)).toEqual({
      al: 1600,
      bo: 1600,
      cy: 1600,
      di: 1600,
    });
  });

  it('Given weeklyPenalty −50, When a short week closes, Then it costs 50', () => {
    expect(weekOf(withParams({ weeklyPenalty: -50 }), { 'al-bo': 1 })).toEqual({
      al: 1550,
      bo: 1550,
    });
  });

  it('Given monthlyPenalty −300, When November closes without a game, Then it costs 300 (200 by default)', () => {
    const month = (ladder: LadderConfig) => {
      const fold = new LadderFold(ladder);
      fold.evolve(game('al', 'bo', 'draw', '2026-10-31T10:00:00+08:00'));
      fold.close(fold.calendar.window('monthly', '2026-11'));
      return fold.player('al').rating;
    };
    expect(month(BUILT_IN)).toBe(1400);
    expect(month(withParams({ monthlyPenalty: -300 }))).toBe(1300);
  });

  it('Given floor 200, When players at 220 and 200 miss the quota or are penalized, Then nobody goes below 200', () => {
    const short = (ladder: LadderConfig) => {
      const fold = new LadderFold(ladder);
      for (const [id, rating] of Object.entries({ al: 220, bo: 220, cy: 200, di: 200 }))
        fold.setPlayer({ ...newPlayer(id, ladder), rating });
      fold.evolve(game('al', 'bo', 'draw'));
      fold.evolve(game('cy', 'di', 'draw'));
      const closed = fold.close(fold.calendar.window('weekly', '2026-W48'));
      const penalized = fold.evolve({
        id: 'p-1',
        type: 'player.penalized',
        ladder: 'igame-gomoku',
        player: 'bo',
        points: -100,
        reason: 'disconnects',
        at: '2026-12-01T10:00:00+08:00',
      });
      return {
        al: fold.player('al').rating,
        bo: fold.player('bo').rating,
        cy: fold.player('cy').rating,
        floors: [closed, penalized].flatMap((o) =>
          o.status === 'applied' ? o.changes.map((c) => (c.why as { floor: unknown }).floor) : [],
        ),
      };
    };
    // Default floor 100: 220 − 30 = 190, then −100 stops at 100; 200 − 30 = 170.
    expect(short(BUILT_IN)).toEqual({
      al: 190,
      bo: 100,
      cy: 170,
      floors: [100, 100, 100, 100, 100],
    });
    // Floor 200: 220 − 30 stops at 200; 200 is at the floor and stays (its change moves 0).
    expect(short(withParams({ floor: 200 }))).toEqual({
      al: 200,
      bo: 200,
      cy: 200,
      floors: [200, 200, 200, 200, 200],
    });
  });
});

describe('igame-elo parameters: the disconnect rule (fold and maintenance service alike)', () => {
  /** `pattern` games of al against bo ('x' = al disconnected): the fold's penalties and counter, and the tally's. */
  function disconnects(ladder: LadderConfig, pattern: string) {
    const fold = new LadderFold(ladder);
    const counters = new Map<string, DisconnectCounter>();
    const fromFold: number[] = [];
    const fromTally: number[] = [];
    [...pattern].forEach((g, i) => {
      const event = game('al', 'bo', 'draw', '2026-11-24T10:00:00+08:00', g === 'x');
      const outcome = fold.evolve(event);
      if (outcome.status === 'applied' && outcome.disconnectPenalties.length > 0)
        fromFold.push(i + 1);
      for (const p of tallyDisconnects(ladder, event, counters)) fromTally.push(p.points);
    });
    return {
      fromFold,
      fromTally,
      counter: fold.player('al').disconnects,
      tallied: counters.get('al')!.count,
    };
  }

  it('Given disconnectLimit 3, When al disconnects 5 times, Then the third triggers the penalty', () => {
    expect(disconnects(BUILT_IN, 'xxxxx')).toEqual({
      fromFold: [5],
      fromTally: [-100],
      counter: 0,
      tallied: 0,
    });
    expect(disconnects(withParams({ disconnectLimit: 3 }), 'xxxxx')).toEqual({
      fromFold: [3],
      fromTally: [-100],
      counter: 2,
      tallied: 2,
    });
  });

  it('Given disconnectPenalty −50, When the limit is reached, Then the penalty is −50, and a simulated replay applies it', () => {
    const ladder = withParams({ disconnectPenalty: -50 });
    expect(disconnects(ladder, 'xxxxx')).toMatchObject({ fromFold: [5], fromTally: [-50] });
    const replayed = (ladders: ReadonlyMap<string, LadderConfig>) => {
      const engine = new ReplayEngine(ladders, { simulate: true });
      for (let i = 0; i < 5; i++)
        engine.ingest(game('al', 'bo', 'draw', `2026-11-24T10:0${i}:00+08:00`, true));
      return engine.ladderFolds.get('igame-gomoku')!.player('al').rating;
    };
    expect(replayed(ladderRegistry())).toBe(1500);
    expect(
      replayed(ladderRegistry([{ id: 'igame-gomoku', params: { disconnectPenalty: -50 } }])),
    ).toBe(1550);
  });

  it('Given cleanStreak 3, When al disconnects twice then plays 3 clean games, Then the counter is back to 0', () => {
    expect(disconnects(BUILT_IN, 'xx...')).toMatchObject({ counter: 2, tallied: 2 });
    expect(disconnects(withParams({ cleanStreak: 3 }), 'xx...')).toMatchObject({
      counter: 0,
      tallied: 0,
    });
    expect(disconnects(withParams({ cleanStreak: 3 }), 'xx..')).toMatchObject({
      counter: 2,
      tallied: 2,
    });
  });
});

describe('igame-elo parameters: defaults', () => {
  it('Given no params, Then the defaults are the numbers of RULES.md', () => {
    expect(BUILT_IN.params).toEqual({
      k: [{ below: 2100, k: 32 }, { below: 2400, k: 24 }, { k: 16 }],
      eloScale: 400,
      rescale: [
        { boundary: 2100, up: 0.75, down: 1.33 },
        { boundary: 2400, up: 0.66, down: 1.5 },
      ],
      weeklyQuota: 7,
      weeklyPenalty: -30,
      monthlyPenalty: -200,
      floor: 100,
      disconnectLimit: 5,
      disconnectPenalty: -100,
      cleanStreak: 50,
    });
  });
});
