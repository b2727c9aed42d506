import { type FinishedMatch, rankGroup, type StandingRow } from './group-standings.js';

// Seed 000 rules 4-5 (RULES.md "Tournament standings").

const m = (a: string, b: string, wa: number, wb: number): FinishedMatch => ({
  players: [a, b],
  wins: [wa, wb],
});
type Line = [
  player: string,
  position: number,
  matchPoints: number,
  smallPoints: number,
  tiedWith: string[],
];
const lines = (rows: StandingRow[]): Line[] =>
  rows.map((r) => [r.player, r.position, r.matchPoints, r.smallPoints, [...r.tiedWith]]);

describe('group standings', () => {
  it("reproduces the seed's examples: 3:0 gives small points 3, 1:3 gives -2, 2:2 gives 0", () => {
    const rows = rankGroup(
      ['w', 'x', 'y', 'z'],
      [m('w', 'x', 3, 0), m('y', 'w', 3, 1), m('x', 'z', 2, 2)],
    );
    const by = new Map(rows.map((r) => [r.player, r]));
    expect(by.get('x')).toMatchObject({ smallPoints: -3 + 0, matchPoints: 0.5, drawn: 1, lost: 1 });
    expect(by.get('z')).toMatchObject({ smallPoints: 0, matchPoints: 0.5, played: 1 });
    expect(by.get('y')).toMatchObject({ smallPoints: 2, matchPoints: 1, won: 1 });
    // w: 3:0 (+3) and 1:3 (-2)
    expect(by.get('w')).toMatchObject({
      smallPoints: 1,
      gamesWon: 4,
      gamesLost: 3,
      matchPoints: 1,
    });
  });

  it('orders by match points, then small points', () => {
    const rows = rankGroup(
      ['a', 'b', 'c'],
      [m('a', 'b', 3, 1), m('b', 'c', 3, 0), m('c', 'a', 2, 2)],
    );
    // a: W 3:1, D 2:2 -> 1.5, +2; b: L 1:3, W 3:0 -> 1, +1; c: L 0:3, D -> 0.5, -3
    expect(lines(rows)).toEqual([
      ['a', 1, 1.5, 2, []],
      ['b', 2, 1, 1, []],
      ['c', 3, 0.5, -3, []],
    ]);
  });

  it('breaks a three-way tie on points and small points by the mini-table of the tied players', () => {
    // b1 > b2 3:1, b1 = b3 2:2, b2 > b3 3:1; against the others: b1 loses to b4 1:3,
    // b2 draws b4 2:2, b3 beats b4 3:1, and all three beat b5 3:0; b5 beats b4 3:1.
    // b1, b2, b3: 2.5 points, +3 each. Mini-table: b1 1.5, b2 1, b3 0.5.
    const rows = rankGroup(
      ['b5', 'b4', 'b3', 'b2', 'b1'],
      [
        m('b1', 'b2', 3, 1),
        m('b1', 'b3', 2, 2),
        m('b2', 'b3', 3, 1),
        m('b1', 'b4', 1, 3),
        m('b2', 'b4', 2, 2),
        m('b3', 'b4', 3, 1),
        m('b1', 'b5', 3, 0),
        m('b2', 'b5', 3, 0),
        m('b3', 'b5', 3, 0),
        m('b5', 'b4', 3, 1),
      ],
    );
    expect(lines(rows)).toEqual([
      ['b1', 1, 2.5, 3, []],
      ['b2', 2, 2.5, 3, []],
      ['b3', 3, 2.5, 3, []],
      ['b4', 4, 1.5, -2, []],
      ['b5', 5, 1, -7, []],
    ]);
  });

  it('re-applies head to head to each part of a tie the mini-table splits', () => {
    // a, b, c, d: 3 points and 0 small points each. Their mini-table: a 2 (beat b, d),
    // d 2 (beat b, c), b 1 (beat c), c 1 (beat a): two pairs still tied. Each pair is re-run on
    // its own match: a beat d, b beat c. o and o2 are the outsiders.
    const rows = rankGroup(
      ['o2', 'o', 'd', 'c', 'b', 'a'],
      [
        m('a', 'b', 3, 0),
        m('c', 'a', 3, 1),
        m('a', 'd', 3, 1),
        m('b', 'c', 3, 0),
        m('d', 'b', 3, 1),
        m('d', 'c', 3, 1),
        m('o', 'a', 3, 0), // a: +3 -2 +2 -3 = 0
        m('o', 'd', 3, 1), // d: -2 +2 +2 -2 = 0
        m('b', 'o', 3, 1), // b: -3 +3 -2 +2 = 0
        m('c', 'o', 3, 0), // c: +2 -3 -2 +3 = 0
        ...['a', 'b', 'c', 'd'].map((p) => m(p, 'o2', 3, 0)),
        m('o2', 'o', 3, 0), // o2 beats o 3:0
      ],
    );
    expect(lines(rows)).toEqual([
      ['a', 1, 3, 3, []],
      ['d', 2, 3, 3, []],
      ['b', 3, 3, 3, []],
      ['c', 4, 3, 3, []],
      ['o', 5, 2, -3, []],
      ['o2', 6, 1, -9, []],
    ]);
  });

  it('leaves two players tied on everything, their own match drawn, for a play-off', () => {
    // x first on points; y and z tied on 1.5 and +1, their own match drawn: play-off.
    const rows = rankGroup(
      ['o', 'x', 'y', 'z'],
      [
        m('x', 'y', 3, 1),
        m('x', 'z', 3, 1),
        m('o', 'x', 3, 0), // x: 2 points, +1
        m('y', 'o', 3, 0),
        m('z', 'o', 3, 0),
        m('y', 'z', 2, 2), // y, z: 1.5 points, +1
      ],
    );
    expect(lines(rows)).toEqual([
      ['x', 1, 2, 1, []],
      ['y', 2, 1.5, 1, ['z']],
      ['z', 2, 1.5, 1, ['y']],
      ['o', 4, 1, -3, []],
    ]);
    expect(rows.map((r) => r.playoffNeeded)).toEqual([false, true, true, false]);
  });

  it('flags a circular tie the rules cannot break as "play-off needed", never breaking it', () => {
    // c1 > c2 3:1, c2 > c3 3:1, c3 > c1 3:1; all beat c4 3:0: each 2 points, +2 -2 +3 = +3.
    const rows = rankGroup(
      ['c4', 'c3', 'c2', 'c1'],
      [
        m('c1', 'c2', 3, 1),
        m('c2', 'c3', 3, 1),
        m('c3', 'c1', 3, 1),
        m('c1', 'c4', 3, 0),
        m('c2', 'c4', 3, 0),
        m('c3', 'c4', 3, 0),
      ],
    );
    expect(lines(rows)).toEqual([
      ['c1', 1, 2, 3, ['c2', 'c3']],
      ['c2', 1, 2, 3, ['c1', 'c3']],
      ['c3', 1, 2, 3, ['c1', 'c2']],
      ['c4', 4, 0, -9, []],
    ]);
    expect(rows.map((r) => r.playoffNeeded)).toEqual([true, true, true, false]);
  });
});
