import type { LadderEvent } from '@ranking/contracts';
import { TournamentScript } from '@ranking/generator';
import { checkTournamentConfig } from './tournament-config.js';
import { type GroupView, tournamentView } from './tournament-view.js';

// A full group stage like seed 000's: 6 groups (group 6 on the no-forbidden-moves ladder), the
// top two through, the six third places in a play-off group for 4 more places (16 in all).
// Every table below is worked out by hand from the match list beside it.

const config = checkTournamentConfig({
  id: 'qq-renju-2006',
  name: 'QQ renju group stage',
  ladder: 'qq-gomoku',
  groups: [
    { id: 'g1', players: ['a1', 'a2', 'a3', 'a4'] },
    { id: 'g2', players: ['b1', 'b2', 'b3', 'b4', 'b5'] },
    { id: 'g3', players: ['c1', 'c2', 'c3', 'c4'] },
    { id: 'g4', players: ['d1', 'd2', 'd3', 'd4'] },
    { id: 'g5', players: ['e1', 'e2', 'e3', 'e4'] },
    { id: 'g6', ladder: 'qq-gomoku-free', players: ['f1', 'f2', 'f3', 'f4'] },
  ],
  advancement: { perGroup: 2, playoff: { group: 'po', places: 4 } },
});

/** The group stage; marks are games from the first-named player's side (a, b, d = drawn). */
function groupStage(script: TournamentScript): void {
  // g1: a1 W 3:0, W 3:1, D 2:2 -> 2.5, +5; a3 L 1:3, W 3:0, D -> 1.5, +1;
  //     a4 D, L 1:3, D -> 1, -2; a2 L 0:3, L 0:3, W 3:1 -> 1, -4.
  script.play('g1', 'a1', 'a2', 'aaa');
  script.play('g1', 'a1', 'a3', 'abaa');
  script.play('g1', 'a1', 'a4', 'aabb');
  script.play('g1', 'a2', 'a3', 'bbb');
  script.play('g1', 'a2', 'a4', 'aaba');
  script.play('g1', 'a3', 'a4', 'abab');
  // g2: b1, b2, b3 all 2.5 points and +3; mini-table b1 1.5, b2 1, b3 0.5.
  //     b4: W 3:1 v b1, D v b2, L 1:3 v b3, L 1:3 v b5 -> 1.5, -2; b5: 0:3 x3, W 3:1 -> 1, -7.
  script.play('g2', 'b1', 'b2', 'abaa');
  script.play('g2', 'b1', 'b3', 'abab');
  script.play('g2', 'b2', 'b3', 'abaa');
  script.play('g2', 'b1', 'b4', 'babb');
  script.play('g2', 'b2', 'b4', 'baab');
  script.play('g2', 'b3', 'b4', 'aaba');
  script.play('g2', 'b1', 'b5', 'aaa');
  script.play('g2', 'b2', 'b5', 'aaa');
  script.play('g2', 'b3', 'b5', 'aaa');
  script.play('g2', 'b4', 'b5', 'bbab');
  // g3: c2 does not show up against c1 (0:3); c1-c3 3:0 with a 4th game reported anyway.
  //     c1 3, +8; c3 L 0:3, D 2:2, W 3:0 -> 1.5, 0; c4 L 1:3, W 3:1, L 0:3 -> 1, -3;
  //     c2 L 0:3, D, L 1:3 -> 0.5, -5.
  script.noShow('g3', 'c1', 'c2');
  script.play('g3', 'c1', 'c3', 'aaab');
  script.play('g3', 'c1', 'c4', 'baaa');
  script.play('g3', 'c2', 'c3', 'aabb');
  script.play('g3', 'c2', 'c4', 'bbab');
  script.play('g3', 'c3', 'c4', 'aaa');
  // g4: adjudications. d1-d4 reported a b b b (d4 3:1), then game 3 is given to d1: a b a b,
  //     2:2. d2-d4 reported a a b a (3:1), then game 3 is annulled: 3:0.
  //     d2 L 0:3, W 3:1, W 3:0 -> 2, +2; d3 W 3:1 v d1, L 1:3, W 3:1 -> 2, +2 (d2 beat d3);
  //     d1 W 3:0, L 1:3, D -> 1.5, +1; d4 D, L 0:3, L 1:3 -> 0.5, -5.
  script.play('g4', 'd1', 'd2', 'aaa');
  script.play('g4', 'd1', 'd3', 'babb');
  const d1d4 = script.play('g4', 'd1', 'd4', 'abbb');
  script.play('g4', 'd2', 'd3', 'abaa');
  const d2d4 = script.play('g4', 'd2', 'd4', 'aaba');
  script.play('g4', 'd3', 'd4', 'aaba');
  script.correct(d1d4[2]!.gameId, 'd1');
  script.void(d2d4[2]!.gameId);
  // g5: e1 and e2 drew 2:2 and beat the others by the same margins: both 2.5, +5, tied for
  //     first (a play-off for the order, but both are through); e3 1, -2; e4 0, -8.
  script.play('g5', 'e1', 'e2', 'abab');
  script.play('g5', 'e1', 'e3', 'aaa');
  script.play('g5', 'e1', 'e4', 'abaa');
  script.play('g5', 'e2', 'e3', 'abaa');
  script.play('g5', 'e2', 'e4', 'aaa');
  script.play('g5', 'e3', 'e4', 'aaa');
  // g6: f1-f2 a d b a: 2:1 after four games, f1 wins. f2 W 3:1, W 3:1, L 1:2 -> 2, +3;
  //     f1 W 2:1, W 3:0, L 0:3 -> 2, +1; f4 W 3:0, L 1:3 x2 -> 1, -1; f3 1, -3.
  script.play('g6', 'f1', 'f2', 'adba');
  script.play('g6', 'f1', 'f3', 'aaa');
  script.play('g6', 'f1', 'f4', 'bbb');
  script.play('g6', 'f2', 'f3', 'abaa');
  script.play('g6', 'f2', 'f4', 'abaa');
  script.play('g6', 'f3', 'f4', 'baaa');
}

/** The play-off of the third places a4, b3, c4, d1, e3, f4 (winner named first). */
function playoffStage(script: TournamentScript): void {
  script.play('po', 'a4', 'b3', 'abaa');
  script.play('po', 'a4', 'c4', 'aaa');
  script.play('po', 'd1', 'a4', 'abaa');
  script.play('po', 'a4', 'e3', 'aaa');
  script.play('po', 'a4', 'f4', 'aaba');
  script.play('po', 'b3', 'c4', 'aaa');
  script.play('po', 'b3', 'd1', 'aaba');
  script.play('po', 'b3', 'e3', 'abab');
  script.play('po', 'b3', 'f4', 'aaa');
  script.play('po', 'c4', 'd1', 'abaa');
  script.play('po', 'c4', 'e3', 'aaba');
  script.play('po', 'c4', 'f4', 'abba');
  script.play('po', 'd1', 'e3', 'aaa');
  script.play('po', 'f4', 'd1', 'abaa');
  script.play('po', 'e3', 'f4', 'aaa');
}

type Row = [
  player: string,
  position: number,
  matchPoints: number,
  smallPoints: number,
  fate: string,
];
const table = (group: Pick<GroupView, 'standings'>): Row[] =>
  group.standings.map((r) => [r.player, r.position, r.matchPoints, r.smallPoints, r.fate]);

describe('a full group stage with the third-place play-off', () => {
  const script = new TournamentScript(config);
  groupStage(script);
  const afterGroups = [...script.events];
  playoffStage(script);
  const view = tournamentView(config, script.events);
  const group = (id: string) => view.groups.find((g) => g.id === id)!;

  it('tables every group as worked out by hand', () => {
    expect(table(group('g1'))).toEqual([
      ['a1', 1, 2.5, 5, 'qualified'],
      ['a3', 2, 1.5, 1, 'qualified'],
      ['a4', 3, 1, -2, 'playoff'],
      ['a2', 4, 1, -4, 'eliminated'],
    ]);
    expect(table(group('g2'))).toEqual([
      ['b1', 1, 2.5, 3, 'qualified'],
      ['b2', 2, 2.5, 3, 'qualified'],
      ['b3', 3, 2.5, 3, 'playoff'],
      ['b4', 4, 1.5, -2, 'eliminated'],
      ['b5', 5, 1, -7, 'eliminated'],
    ]);
    expect(table(group('g3'))).toEqual([
      ['c1', 1, 3, 8, 'qualified'],
      ['c3', 2, 1.5, 0, 'qualified'],
      ['c4', 3, 1, -3, 'playoff'],
      ['c2', 4, 0.5, -5, 'eliminated'],
    ]);
    expect(table(group('g4'))).toEqual([
      ['d2', 1, 2, 2, 'qualified'],
      ['d3', 2, 2, 2, 'qualified'],
      ['d1', 3, 1.5, 1, 'playoff'],
      ['d4', 4, 0.5, -5, 'eliminated'],
    ]);
    expect(table(group('g5'))).toEqual([
      ['e1', 1, 2.5, 5, 'qualified'],
      ['e2', 1, 2.5, 5, 'qualified'],
      ['e3', 3, 1, -2, 'playoff'],
      ['e4', 4, 0, -8, 'eliminated'],
    ]);
    expect(
      group('g5')
        .standings.slice(0, 2)
        .map((r) => r.playoffNeeded),
    ).toEqual([true, true]);
    expect(table(group('g6'))).toEqual([
      ['f2', 1, 2, 3, 'qualified'],
      ['f1', 2, 2, 1, 'qualified'],
      ['f4', 3, 1, -1, 'playoff'],
      ['f3', 4, 1, -3, 'eliminated'],
    ]);
    expect(view.groups.every((g) => g.complete)).toBe(true);
  });

  it('shows the no-show, the ignored 4th game, the draw and the adjudications in the matches', () => {
    const match = (g: string, a: string, b: string) =>
      group(g).matches.find((m) => m.players[0] === a && m.players[1] === b)!;
    expect(match('g3', 'c1', 'c2')).toMatchObject({ score: [3, 0], winner: 'c1', noShow: 'c2' });
    const c1c3 = match('g3', 'c1', 'c3');
    expect(c1c3).toMatchObject({ score: [3, 0], status: 'finished' });
    expect(c1c3.games.map((g) => g.note)).toEqual([null, null, null, 'after-end']);
    expect(match('g1', 'a1', 'a4')).toMatchObject({ score: [2, 2], winner: null, draw: true });
    expect(match('g6', 'f1', 'f2')).toMatchObject({ score: [2, 1], winner: 'f1' });
    expect(match('g4', 'd1', 'd4')).toMatchObject({ score: [2, 2], draw: true });
    const d2d4 = match('g4', 'd2', 'd4');
    expect(d2d4).toMatchObject({ score: [3, 0], winner: 'd2' });
    expect(d2d4.games.map((g) => g.counted)).toEqual([true, true, false, true]);
    expect(d2d4.games[2]!.note).toBe('void');
  });

  it('sends the third places to the play-off group and tables it', () => {
    expect(view.playoff?.players).toEqual(['a4', 'b3', 'c4', 'd1', 'e3', 'f4']);
    // a4 4, +8; b3 3.5, +6; c4 2.5, -2; d1 2, -1; e3 1.5, -5; f4 1.5, -6 (e3 over f4 on small points).
    expect(table(view.playoff!)).toEqual([
      ['a4', 1, 4, 8, 'qualified'],
      ['b3', 2, 3.5, 6, 'qualified'],
      ['c4', 3, 2.5, -2, 'qualified'],
      ['d1', 4, 2, -1, 'qualified'],
      ['e3', 5, 1.5, -5, 'eliminated'],
      ['f4', 6, 1.5, -6, 'eliminated'],
    ]);
    expect(view.playoff?.complete).toBe(true);
    expect(view.complete).toBe(true);
  });

  it('names the 16 who go through: 12 from the groups, 4 from the play-off', () => {
    expect(view.advancement.qualified.map((q) => `${q.group}:${q.player}`)).toEqual([
      'g1:a1',
      'g1:a3',
      'g2:b1',
      'g2:b2',
      'g3:c1',
      'g3:c3',
      'g4:d2',
      'g4:d3',
      'g5:e1',
      'g5:e2',
      'g6:f2',
      'g6:f1',
      'po:a4',
      'po:b3',
      'po:c4',
      'po:d1',
    ]);
    expect(view.advancement.toPlayoff.map((q) => q.player)).toEqual([
      'a4',
      'b3',
      'c4',
      'd1',
      'e3',
      'f4',
    ]);
    expect(view.advancement.playoffNeeded).toEqual([]);
    expect(view.ignored).toEqual([]);
  });

  it('before the play-off is played, knows its entrants and lists its matches as scheduled', () => {
    const early = tournamentView(config, afterGroups);
    expect(early.playoff).toMatchObject({
      players: ['a4', 'b3', 'c4', 'd1', 'e3', 'f4'],
      complete: false,
    });
    expect(early.playoff!.matches).toHaveLength(15);
    expect(early.playoff!.matches.every((m) => m.status === 'scheduled')).toBe(true);
    expect(early.playoff!.standings.every((r) => r.fate === 'pending')).toBe(true);
    expect(early.advancement.qualified).toHaveLength(12);
    expect(early.complete).toBe(false);
  });

  it('ignores a play-off game of a player who is not an entrant', () => {
    const extra = new TournamentScript(config, '2026-03-27T18:00:00+08:00');
    const [stray] = extra.play('po', 'a1', 'a4', 'a');
    const withStray = tournamentView(config, [...script.events, ...extra.events]);
    expect(withStray.ignored).toEqual([
      { eventId: stray!.id, gameId: stray!.gameId, reason: 'not-in-group' },
    ]);
    expect(withStray.playoff?.standings).toEqual(view.playoff?.standings);
  });

  it('is the same whether the log is read once or with every event repeated', () => {
    const doubled = script.events.flatMap((e) => [e, e]);
    expect(tournamentView(config, doubled)).toEqual(view);
  });

  it('Given an annulment of a player who won matches, When the view is folded, Then the standings are unchanged (RULES.md "Annulment")', () => {
    const annulled: LadderEvent = {
      id: 'annul-a1',
      type: 'player.annulled',
      ladder: 'qq-gomoku',
      player: 'a1',
      since: '2000-01-01T00:00:00Z',
      annulledAt: '2099-01-01T00:00:00Z',
    };
    expect(tournamentView(config, [...script.events, annulled])).toEqual(view);
  });
});

describe('a tournament under way', () => {
  it('keeps fates pending while a group plays, and the play-off waiting', () => {
    const script = new TournamentScript(config);
    script.play('g1', 'a1', 'a2', 'aab');
    const view = tournamentView(config, script.events);
    const g1 = view.groups[0]!;
    expect(g1.complete).toBe(false);
    expect(g1.matches[0]).toMatchObject({ status: 'playing', score: [2, 1] });
    // An unfinished match is not in the table yet.
    expect(g1.standings.every((r) => r.played === 0 && r.fate === 'pending')).toBe(true);
    expect(view.playoff).toMatchObject({ players: null, standings: [], matches: [] });
  });

  it('marks a circular tie across the cut-off as play-off needed and holds the play-off back', () => {
    const script = new TournamentScript(config);
    // g1: a1 > a2 3:1, a2 > a3 3:1, a3 > a1 3:1; all beat a4 3:0: a circle for places 1-3.
    script.play('g1', 'a1', 'a2', 'abaa');
    script.play('g1', 'a2', 'a3', 'abaa');
    script.play('g1', 'a3', 'a1', 'abaa');
    for (const p of ['a1', 'a2', 'a3']) script.play('g1', p, 'a4', 'aaa');
    const view = tournamentView(config, script.events);
    expect(table(view.groups[0]!)).toEqual([
      ['a1', 1, 2, 3, 'playoff-needed'],
      ['a2', 1, 2, 3, 'playoff-needed'],
      ['a3', 1, 2, 3, 'playoff-needed'],
      ['a4', 4, 0, -9, 'eliminated'],
    ]);
    expect(view.advancement.playoffNeeded.map((q) => q.player)).toEqual(['a1', 'a2', 'a3']);
    expect(view.playoff?.players).toBeNull();
  });

  it('leaves a circular tie in the play-off group for a play-off of its own', () => {
    const small = checkTournamentConfig({
      id: 'small-cup',
      ladder: 'qq-gomoku',
      groups: [
        { id: 'g1', players: ['a', 'b', 'c'] },
        { id: 'g2', players: ['d', 'e', 'f'] },
        { id: 'g3', players: ['g', 'h', 'i'] },
      ],
      advancement: { perGroup: 1, playoff: { group: 'po', places: 1 } },
    });
    const script = new TournamentScript(small);
    for (const [group, [x, y, z]] of [
      ['g1', ['a', 'b', 'c']],
      ['g2', ['d', 'e', 'f']],
      ['g3', ['g', 'h', 'i']],
    ] as const) {
      script.play(group, x, y, 'aaa');
      script.play(group, x, z, 'aaa');
      script.play(group, y, z, 'aaa');
    }
    // b > e 3:1, e > h 3:1, h > b 3:1: each 1 point and 0 small points.
    script.play('po', 'b', 'e', 'abaa');
    script.play('po', 'e', 'h', 'abaa');
    script.play('po', 'h', 'b', 'abaa');
    const view = tournamentView(small, script.events);
    expect(view.playoff?.players).toEqual(['b', 'e', 'h']);
    expect(table(view.playoff!)).toEqual([
      ['b', 1, 1, 0, 'playoff-needed'],
      ['e', 1, 1, 0, 'playoff-needed'],
      ['h', 1, 1, 0, 'playoff-needed'],
    ]);
    expect(view.advancement.qualified.map((q) => q.player)).toEqual(['a', 'd', 'g']);
    expect(view.advancement.playoffNeeded.map((q) => `${q.group}:${q.player}`)).toEqual([
      'po:b',
      'po:e',
      'po:h',
    ]);
  });

  it('lists events that name the tournament but cannot count, and passes other events by', () => {
    const script = new TournamentScript(config);
    const [game] = script.play('g1', 'a1', 'a2', 'a');
    const named = (patch: Record<string, unknown>, match: Record<string, unknown> = {}) =>
      ({
        ...game!,
        ...patch,
        context: { tournament: true, match: { ...game!.context!.match!, ...match } },
      }) as LadderEvent;
    const events: LadderEvent[] = [
      ...script.events,
      named({ id: 'x1', gameId: 'x1' }, { group: 'g9' }),
      named({ id: 'x2', gameId: 'x2', ladder: 'qq-gomoku-free' }),
      named({
        id: 'x3',
        gameId: 'x3',
        players: [
          { id: 'a1', result: 'win' },
          { id: 'b1', result: 'loss' },
        ],
      }),
      named({
        id: 'x4',
        gameId: 'x4',
        players: [
          { id: 'a1', result: 'win' },
          { id: 'a2', result: 'win' },
        ],
      }),
      named({ id: 'x5', gameId: 'x5', players: [{ id: 'a1', result: 'win' }] }),
      named({ id: 'x6', gameId: 'x6' }, { tournament: 'another-cup' }),
      { ...game!, id: 'x7', gameId: 'x7', context: { tournament: true } },
      {
        id: 'x8',
        type: 'game.corrected',
        ladder: 'qq-gomoku',
        gameId: game!.gameId,
        correctedAt: '2026-03-22T10:00:00+08:00',
        players: [
          { id: 'a1', result: 'win' },
          { id: 'zz', result: 'loss' },
        ],
      },
      {
        id: 'x9',
        type: 'game.corrected',
        ladder: 'qq-gomoku',
        gameId: 'unrelated',
        correctedAt: '2026-03-22T10:00:00+08:00',
        void: true,
      },
    ];
    const view = tournamentView(config, events);
    expect(view.ignored.map((i) => [i.eventId, i.reason])).toEqual([
      ['x1', 'unknown-group'],
      ['x2', 'wrong-ladder'],
      ['x3', 'not-in-group'],
      ['x4', 'inconsistent-result'],
      ['x5', 'wrong-player-count'],
      ['x8', 'inconsistent-result'],
    ]);
    expect(view.groups[0]!.matches[0]).toMatchObject({ score: [1, 0], status: 'playing' });
  });

  it('brings a voided game back when a later adjudication gives it a result', () => {
    const script = new TournamentScript(config);
    const games = script.play('g1', 'a1', 'a2', 'aaa');
    script.void(games[0]!.gameId);
    const voided = tournamentView(config, script.events).groups[0]!.matches[0]!;
    expect(voided).toMatchObject({ score: [2, 0], status: 'playing' });
    script.correct(games[0]!.gameId, 'a2');
    const back = tournamentView(config, script.events).groups[0]!.matches[0]!;
    expect(back).toMatchObject({ score: [2, 1], status: 'playing' });
  });
});
