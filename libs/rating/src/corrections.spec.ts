import type { PlayerReport } from '@ranking/contracts';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { win, loss, draw } from './reports.fixture.js';

// RULES.md "Corrections" and "Details the tests rely on / Corrections", for every rule set.
// Every expected number is worked out by hand from RULES.md in the comment beside it.

const LADDERS = ladderRegistry();

type Standing = Record<string, number | string | boolean>;
interface Output {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string | null; reason: string }[];
}

let counter = 0;
const nextId = (): string => `ev-${++counter}`;

function finished(
  ladder: string,
  gameId: string,
  finishedAt: string,
  players: PlayerReport[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: nextId(),
    type: 'game.finished',
    ladder,
    gameId,
    finishedAt,
    moves: 60,
    players,
    ...extra,
  };
}

function corrected(
  ladder: string,
  gameId: string,
  correctedAt: string,
  body: { void: true; players?: PlayerReport[] } | { players: PlayerReport[] },
  id: string = nextId(),
): Record<string, unknown> {
  return { id, type: 'game.corrected', ladder, gameId, correctedAt, ...body, note: 'adjudication' };
}

function dailyClose(ladder: string, key: string): Record<string, unknown> {
  return {
    id: `period.closed:${ladder}:daily:${key}`,
    type: 'period.closed',
    ladder,
    period: 'daily',
    key,
    start: `${key}T06:00:00+08:00`,
    end: `${key}T06:00:00+08:00`,
  };
}

function replay(events: readonly Record<string, unknown>[], simulate = false): ReplayEngine {
  const engine = new ReplayEngine(LADDERS, { simulate });
  for (const e of events) engine.ingestLine(JSON.stringify(e));
  engine.finish(null);
  return engine;
}

const output = (engine: ReplayEngine): Output =>
  JSON.parse([...engine.render()].join('')) as Output;

/** A player's line; a player left out is in the default state (CONTRACT.md allows leaving it out). */
function standing(out: Output, ladder: string, id: string): Standing | undefined {
  return out.ladders[ladder]?.players[id];
}

/** The player is either left out or listed with exactly these (default) values. */
function expectDefault(out: Output, ladder: string, id: string, defaults: Standing): void {
  const line = standing(out, ladder, id);
  if (line !== undefined) expect(line).toEqual(defaults);
}

const QQ = 'qq-gomoku';
const IG = 'igame-gomoku';
const CASUAL = 'igame-gomoku-casual';
const XQ = 'qq-xiangqi';
const XB = 'xinbo-go';
const SQ = 'qq-blokus';
const FK = 'qq-fifty-k';

describe('corrections (game.corrected)', () => {
  describe('qq-points', () => {
    // g1: ann beats bob at 0/0: d=0, gain 10 - 0 = 10 -> ann 10, bob -10.
    // g2: ann (10) beats bob (-10): d=20, higher wins: 10 - floor(20/10) = 8 -> ann 18, bob -18.
    const games = [
      finished(QQ, 'g1', '2026-11-29T10:00:00+08:00', [win('ann'), loss('bob')]),
      finished(QQ, 'g2', '2026-11-29T11:00:00+08:00', [win('ann'), loss('bob')]),
    ];
    const bobWins = corrected(QQ, 'g1', '2026-11-30T09:00:00+08:00', {
      players: [loss('ann'), win('bob')],
    });

    it('Given two games, When the first is corrected, Then it is recomputed from the ratings before it and only the difference is applied', () => {
      // Given ann 18, bob -18 after g1 and g2
      // When g1 is corrected to "bob wins"
      const out = output(replay([...games, bobWins]));
      // Then g1 at 0/0 with bob winning: bob +10, ann -10; difference from the original (+10/-10):
      // ann -20, bob +20 -> ann 18 - 20 = -2, bob -18 + 20 = 2. g2 is not re-rated (re-rating it from
      // ann -10 / bob 10 would give ann +12: 2 and -2). Titles: -2 -> 1 + ceil(2/100) = 2级; 2 -> 1级.
      expect(standing(out, QQ, 'ann')).toEqual({
        rating: -2,
        games: 2,
        wins: 1,
        losses: 1,
        draws: 0,
        ranked: true,
        title: '2级',
      });
      expect(standing(out, QQ, 'bob')).toEqual({
        rating: 2,
        games: 2,
        wins: 1,
        losses: 1,
        draws: 0,
        ranked: true,
        title: '1级',
      });
      expect(out.rejected).toEqual([]);
      expect(out.void).toEqual([]);
    });

    it('Given a corrected game, When it is corrected again, Then the second correction is relative to the first', () => {
      // Given ann -2, bob 2 after the first correction (g1 currently: ann -10, bob +10)
      // When g1 is corrected to a draw
      const toDraw = corrected(QQ, 'g1', '2026-11-30T10:00:00+08:00', {
        players: [draw('ann'), draw('bob')],
      });
      const out = output(replay([...games, bobWins, toDraw]));
      // Then draw at 0/0 moves floor(0/10) = 0: ann -2 - (-10) + 0 = 8, bob 2 - 10 + 0 = -8
      // (relative to the original instead: ann -2 + (0 - 10) = -12).
      expect(standing(out, QQ, 'ann')).toMatchObject({
        rating: 8,
        games: 2,
        wins: 1,
        losses: 0,
        draws: 1,
      });
      expect(standing(out, QQ, 'bob')).toMatchObject({
        rating: -8,
        games: 2,
        wins: 0,
        losses: 1,
        draws: 1,
      });
    });

    it('Given a game, When a correction says void: true and also lists players, Then void wins and the players are ignored', () => {
      // Given ann 18, bob -18
      // When g2 is voided; the players listed (even a stranger) are ignored
      const voiding = corrected(QQ, 'g2', '2026-11-30T09:00:00+08:00', {
        void: true,
        players: [loss('ann'), win('zed')],
      });
      const out = output(replay([...games, voiding]));
      // Then g2's effect (+8/-8) is taken back: ann 10, bob -10, one game each; nothing is rejected.
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, games: 1, wins: 1, losses: 0 });
      expect(standing(out, QQ, 'bob')).toMatchObject({ rating: -10, games: 1, wins: 0, losses: 1 });
      expect(out.rejected).toEqual([]);
    });

    it('Given a game voided by a correction, When a later correction brings it back, Then it counts again and is never listed under void', () => {
      // Given g1 (ann beats bob: 10/-10) and cat beats dan in g3 (10/-10)
      const log = [
        finished(QQ, 'g1', '2026-11-29T10:00:00+08:00', [win('ann'), loss('bob')]),
        finished(QQ, 'g3', '2026-11-29T10:30:00+08:00', [win('cat'), loss('dan')]),
        corrected(QQ, 'g1', '2026-11-30T09:00:00+08:00', { void: true }),
      ];
      // When g1 is voided
      const voided = output(replay(log));
      // Then ann and bob are back in the default state (0 points, no games)
      expectDefault(voided, QQ, 'ann', {
        rating: 0,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        title: '1级',
      });
      expectDefault(voided, QQ, 'bob', {
        rating: 0,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        title: '1级',
      });
      expect(voided.void).toEqual([]);
      // When a later correction brings g1 back with bob winning
      const back = output(
        replay([
          ...log,
          corrected(QQ, 'g1', '2026-11-30T10:00:00+08:00', { players: [loss('ann'), win('bob')] }),
        ]),
      );
      // Then from 0/0 bob +10, ann -10 (the voided game's effect is 0).
      expect(standing(back, QQ, 'ann')).toEqual({
        rating: -10,
        games: 1,
        wins: 0,
        losses: 1,
        draws: 0,
        ranked: true,
        title: '2级',
      });
      expect(standing(back, QQ, 'bob')).toEqual({
        rating: 10,
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: true,
        title: '1级',
      });
      expect(back.void).toEqual([]);
      expect(back.rejected).toEqual([]);
    });
  });

  describe('igame-elo', () => {
    it('Given a later game, When the first game is corrected, Then it is recomputed from 1600/1600 and the later game stays as rated', () => {
      // Given g1: ann beats bob at 1600/1600: E = 0.5, K = 32 -> ann 1616, bob 1584.
      // g2: ann 1616 beats cat 1600: E_ann = 1/(10^(-16/400) + 1) = 1/(0.912011 + 1) = 0.523010;
      // ann 1616 + 32 * 0.476990 = 1631.26 -> 1631, cat 1600 - 15.26 = 1584.74 -> 1585.
      const log = [
        finished(IG, 'g1', '2026-11-23T10:00:00+08:00', [
          win('ann', { ip: '1' }),
          loss('bob', { ip: '2' }),
        ]),
        finished(IG, 'g2', '2026-11-23T11:00:00+08:00', [
          win('ann', { ip: '1' }),
          loss('cat', { ip: '3' }),
        ]),
        // When g1 is corrected to "bob wins"
        corrected(IG, 'g1', '2026-11-23T12:00:00+08:00', { players: [loss('ann'), win('bob')] }),
      ];
      const out = output(replay(log));
      // Then at 1600/1600 bob +16, ann -16: difference ann -32, bob +32 -> ann 1599, bob 1616; cat unchanged.
      expect(standing(out, IG, 'ann')).toEqual({
        rating: 1599,
        games: 2,
        wins: 1,
        losses: 1,
        draws: 0,
        ranked: false,
        disconnects: 0,
      });
      expect(standing(out, IG, 'bob')).toEqual({
        rating: 1616,
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: false,
        disconnects: 0,
      });
      expect(standing(out, IG, 'cat')).toMatchObject({ rating: 1585, games: 1, losses: 1 });
    });

    it('Given a disconnect counted in a game, When the game is voided by a correction, Then the disconnect counter stays', () => {
      // Given bob disconnected in g1 (counter 1), ann won: 1616/1584
      const log = [
        finished(IG, 'g1', '2026-11-23T10:00:00+08:00', [
          win('ann', { ip: '1' }),
          loss('bob', { ip: '2', disconnected: true }),
        ]),
        // When g1 is voided
        corrected(IG, 'g1', '2026-11-23T12:00:00+08:00', { void: true }),
      ];
      const out = output(replay(log));
      // Then ratings go back to 1600 and no game counts, but bob's counter is still 1.
      expect(standing(out, IG, 'bob')).toEqual({
        rating: 1600,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        disconnects: 1,
      });
      expectDefault(out, IG, 'ann', {
        rating: 1600,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        disconnects: 0,
      });
    });

    it('Given a disconnect penalty already applied (--simulate), When the triggering games are corrected, Then the penalty and the wrapped counter stay', () => {
      // Given five draws at 1600/1600 (E = S = 0.5: no change), bob disconnected in each:
      // the 5th wraps his counter to 0 and costs him -100 -> bob 1500.
      const draws = [1, 2, 3, 4, 5].map((n) =>
        finished(IG, `d${n}`, `2026-11-23T1${n}:00:00+08:00`, [
          draw('ann', { ip: '1' }),
          draw('bob', { ip: '2', disconnected: true }),
        ]),
      );
      // When d5 is corrected to "ann wins" and d3 is voided
      const log = [
        ...draws,
        corrected(IG, 'd5', '2026-11-23T16:30:00+08:00', { players: [win('ann'), loss('bob')] }),
        corrected(IG, 'd3', '2026-11-23T17:00:00+08:00', { void: true }),
      ];
      const out = output(replay(log, true));
      // Then d5 from 1600/1600: ann +16, bob -16 (original 0) -> ann 1616, bob 1500 - 16 = 1484 (penalty stays);
      // voiding a draw moves no rating; the counter stays at 0 (not recounted to 4).
      expect(standing(out, IG, 'bob')).toEqual({
        rating: 1484,
        games: 4,
        wins: 0,
        losses: 1,
        draws: 3,
        ranked: false,
        disconnects: 0,
      });
      expect(standing(out, IG, 'ann')).toEqual({
        rating: 1616,
        games: 4,
        wins: 1,
        losses: 0,
        draws: 3,
        ranked: false,
        disconnects: 0,
      });
    });

    it('Given seven rated games in a week, When a correction voids one, Then the weekly quota counts six and penalizes -30', () => {
      // Given ann and bob draw seven times in 2026-W48 (Mon 2026-11-23 06:00 .. Mon 2026-11-30 06:00, Taipei)
      const week = [1, 2, 3, 4, 5, 6, 7].map((n) =>
        finished(IG, `w${n}`, `2026-11-2${3 + (n % 5)}T1${n}:00:00+08:00`, [
          draw('ann', { ip: '1' }),
          draw('bob', { ip: '2' }),
        ]),
      );
      const close = {
        id: 'period.closed:igame-gomoku:weekly:2026-W48',
        type: 'period.closed',
        ladder: IG,
        period: 'weekly',
        key: '2026-W48',
        start: '2026-11-23T06:00:00+08:00',
        end: '2026-11-30T06:00:00+08:00',
      };
      // When w4 is voided before the weekly close
      const out = output(
        replay([...week, corrected(IG, 'w4', '2026-11-29T20:00:00+08:00', { void: true }), close]),
      );
      // Then each has 6 < 7 rated games in the week: 1600 - 30 = 1570 (without the correction: no penalty)
      expect(standing(out, IG, 'ann')).toMatchObject({ rating: 1570, games: 6, draws: 6 });
      expect(standing(out, IG, 'bob')).toMatchObject({ rating: 1570, games: 6, draws: 6 });
      const control = output(replay([...week, close]));
      expect(standing(control, IG, 'ann')).toMatchObject({ rating: 1600, games: 7 });
    });

    it('Given a player whose only rated game is voided by a correction, When the week closes, Then the player has no rated game and is not penalized', () => {
      // Given cat beat dan once in 2026-W48; the game is voided
      const log = [
        finished(IG, 'only', '2026-11-24T10:00:00+08:00', [
          win('cat', { ip: '1' }),
          loss('dan', { ip: '2' }),
        ]),
        corrected(IG, 'only', '2026-11-25T10:00:00+08:00', { void: true }),
        {
          id: 'period.closed:igame-gomoku:weekly:2026-W48',
          type: 'period.closed',
          ladder: IG,
          period: 'weekly',
          key: '2026-W48',
          start: '2026-11-23T06:00:00+08:00',
          end: '2026-11-30T06:00:00+08:00',
        },
      ];
      // When the week closes
      const out = output(replay(log));
      // Then "at least one rated game before the close" is false for both: no -30, both at 1600.
      const defaults = {
        rating: 1600,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        disconnects: 0,
      };
      expectDefault(out, IG, 'cat', defaults);
      expectDefault(out, IG, 'dan', defaults);
    });
  });

  describe('record-only', () => {
    it('Given a casual game, When it is corrected, Then only W/L/D change', () => {
      // Given ann beat bob in the casual room
      const log = [
        finished(CASUAL, 'c1', '2026-11-23T10:00:00+08:00', [win('ann'), loss('bob')]),
        finished(CASUAL, 'c2', '2026-11-23T11:00:00+08:00', [draw('ann'), draw('bob')]),
        // When c1 is corrected to "bob wins"
        corrected(CASUAL, 'c1', '2026-11-23T12:00:00+08:00', {
          players: [loss('ann'), win('bob')],
        }),
      ];
      const out = output(replay(log));
      // Then ann 0-1-1, bob 1-0-1, no rating field, never ranked
      expect(standing(out, CASUAL, 'ann')).toEqual({
        games: 2,
        wins: 0,
        losses: 1,
        draws: 1,
        ranked: false,
      });
      expect(standing(out, CASUAL, 'bob')).toEqual({
        games: 2,
        wins: 1,
        losses: 0,
        draws: 1,
        ranked: false,
      });
    });

    it('Given a casual game, When it is voided, Then it no longer counts', () => {
      const out = output(
        replay([
          finished(CASUAL, 'c1', '2026-11-23T10:00:00+08:00', [win('ann'), loss('bob')]),
          finished(CASUAL, 'c2', '2026-11-23T11:00:00+08:00', [win('ann'), loss('bob')]),
          corrected(CASUAL, 'c1', '2026-11-23T12:00:00+08:00', { void: true }),
        ]),
      );
      expect(standing(out, CASUAL, 'ann')).toEqual({
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: false,
      });
      expect(standing(out, CASUAL, 'bob')).toEqual({
        games: 1,
        wins: 0,
        losses: 1,
        draws: 0,
        ranked: false,
      });
    });
  });

  describe('qq-elo', () => {
    it('Given a later game, When the first game is corrected to a draw, Then it is recomputed from 1300/1300', () => {
      // Given g1: ann (first) beats bob at 1300/1300. ann: Dr = 0 - 100, E = 1/(10^-0.25 + 1) = 0.640065,
      // K 60: 1300 + 60 * 0.359935 = 1321.60 -> 1322; bob: Dr = +100, E = 0.359935: 1300 - 21.60 -> 1278.
      // g2: ann 1322 (first) beats cat 1300: Dr = (1300 - 1322) - 100 = -122, E = 1/(10^-0.305 + 1) = 0.668695,
      // ann 1322 + 60 * 0.331305 = 1341.88 -> 1342; cat Dr = +122, E = 0.331305: 1300 - 19.88 = 1280.12 -> 1280.
      const log = [
        finished(XQ, 'x1', '2026-11-29T10:00:00+08:00', [
          win('ann', { first: true }),
          loss('bob', { first: false }),
        ]),
        finished(XQ, 'x2', '2026-11-29T11:00:00+08:00', [
          win('ann', { first: true }),
          loss('cat', { first: false }),
        ]),
        // When x1 is corrected to a draw
        corrected(XQ, 'x1', '2026-11-29T12:00:00+08:00', { players: [draw('ann'), draw('bob')] }),
      ];
      const out = output(replay(log));
      // Then the draw from 1300/1300 gives ann 1292 (-8), bob 1308 (+8) (RULES.md's check):
      // ann 1342 + (-8 - 22) = 1312, bob 1278 + (8 + 22) = 1308; cat keeps 1280 (x2 not re-rated).
      expect(standing(out, XQ, 'ann')).toEqual({
        rating: 1312,
        games: 2,
        wins: 1,
        losses: 0,
        draws: 1,
        ranked: true,
        title: '六级',
      });
      expect(standing(out, XQ, 'bob')).toEqual({
        rating: 1308,
        games: 1,
        wins: 0,
        losses: 0,
        draws: 1,
        ranked: true,
        title: '六级',
      });
      expect(standing(out, XQ, 'cat')).toEqual({
        rating: 1280,
        games: 1,
        wins: 0,
        losses: 1,
        draws: 0,
        ranked: true,
        title: '七级',
      });
    });
  });

  describe('xinbo-points', () => {
    // One local day (2026-11-29, Shanghai): the 10-a-day cap counts the valid captures so far.
    // x0: ann 8 (tally 0 -> 8), bob 1.  x1: ann reports 5, room 2 -> 2 valid (tally 10), bob 2.
    // x2: ann reports 3, room 0 -> 0 valid; bob 0.  So ann 10, bob 3.
    const day = [
      finished(
        XB,
        'x0',
        '2026-11-29T10:00:00+08:00',
        [win('ann', { captures: 8 }), loss('bob', { captures: 1 })],
        {
          context: { kind: 'capture', captureTarget: 3 },
        },
      ),
      finished(
        XB,
        'x1',
        '2026-11-29T11:00:00+08:00',
        [win('ann', { captures: 5 }), loss('bob', { captures: 2 })],
        {
          context: { kind: 'capture', captureTarget: 3 },
        },
      ),
      finished(
        XB,
        'x2',
        '2026-11-29T12:00:00+08:00',
        [win('ann', { captures: 3 }), loss('bob', { captures: 0 })],
        {
          context: { kind: 'capture', captureTarget: 3 },
        },
      ),
    ];
    const fewer = corrected(XB, 'x1', '2026-11-29T13:00:00+08:00', {
      players: [{ id: 'ann', captures: 1 }, { id: 'bob' }],
    });

    it("Given a capture game within the day's cap, When its captures are corrected, Then it is recomputed with that day's tally before it", () => {
      // When x1 is corrected to 1 capture for ann
      const out = output(replay([...day, fewer]));
      // Then from the tally before x1 (8): min(1, 10 - 8) = 1 valid; difference 1 - 2 = -1 -> ann 9.
      // (From the current tally 10 it would be 0 -> 8; re-rating x2 would give ann 10.) Level only moves at the close.
      expect(standing(out, XB, 'ann')).toEqual({
        rating: 0,
        games: 3,
        wins: 3,
        losses: 0,
        draws: 0,
        ranked: true,
        level: 25,
        captures: 9,
      });
      expect(standing(out, XB, 'bob')).toEqual({
        rating: 0,
        games: 3,
        wins: 0,
        losses: 3,
        draws: 0,
        ranked: true,
        level: 25,
        captures: 3,
      });
    });

    it("Given a corrected capture game, When the same day's next game arrives, Then the day's tally reflects the corrected captures", () => {
      // Given ann's valid captures on 2026-11-29: 8 + 1 + 0 = 9
      // When x3 (same day) reports 5 captures for ann
      const x3 = finished(
        XB,
        'x3',
        '2026-11-29T14:00:00+08:00',
        [win('ann', { captures: 5 }), loss('bob', { captures: 0 })],
        {
          context: { kind: 'capture', captureTarget: 3 },
        },
      );
      const out = output(replay([...day, fewer, x3]));
      // Then room is 10 - 9 = 1: ann 9 + 1 = 10
      expect(standing(out, XB, 'ann')).toMatchObject({ captures: 10, games: 4 });
    });

    it('Given a corrected capture game, When it is corrected again and the day closes, Then the second correction is relative to the first and the level follows', () => {
      // When x1 is corrected again to 4 captures: min(4, 10 - 8) = 2; current effect 1 -> ann 9 - 1 + 2 = 10
      const more = corrected(XB, 'x1', '2026-11-29T13:30:00+08:00', {
        players: [{ id: 'ann', captures: 4 }, { id: 'bob' }],
      });
      const out = output(replay([...day, fewer, more, dailyClose(XB, '2026-11-29')]));
      // Then at the daily close ann's level is 25 - floor(10/10) = 24, score (25 - 24) * 200 = 200;
      // bob: 25 - floor(3/10) = 25, score 0.
      expect(standing(out, XB, 'ann')).toMatchObject({ rating: 200, level: 24, captures: 10 });
      expect(standing(out, XB, 'bob')).toMatchObject({ rating: 0, level: 25, captures: 3 });
    });

    it('Given two players who reached the territory stage, When a territory game is corrected, Then the bracket amounts of the level before it are swapped', () => {
      // Given 11 days of capture-5 games with 10 captures each (one level a day): after the 11th close
      // captures 110 -> 25 - 11 = 14: territory stage, level 14, score 2200, for both.
      const days: Record<string, unknown>[] = [];
      for (let d = 1; d <= 11; d++) {
        const date = `2026-11-${String(d).padStart(2, '0')}`;
        days.push(
          finished(
            XB,
            `cap${d}`,
            `${date}T10:00:00+08:00`,
            [win('ann', { captures: 10 }), loss('bob', { captures: 10 })],
            {
              context: { kind: 'capture', captureTarget: 5 },
            },
          ),
          dailyClose(XB, date),
        );
      }
      // t1: ann (black) beats bob, both 14级 -> bracket 14-10: ann +12 (2212), bob loss 0 (2200).
      // t2: bob beats ann: bob +12 (2212), ann 0 (2212).
      const territory = [
        finished(
          XB,
          't1',
          '2026-11-12T10:00:00+08:00',
          [win('ann', { side: 'black' }), loss('bob', { side: 'white' })],
          {
            moves: 120,
            context: { kind: 'territory', handicap: 0 },
          },
        ),
        finished(
          XB,
          't2',
          '2026-11-12T11:00:00+08:00',
          [win('bob', { side: 'black' }), loss('ann', { side: 'white' })],
          {
            moves: 120,
            context: { kind: 'territory', handicap: 0 },
          },
        ),
      ];
      // When t1 is corrected to "bob wins"
      const out = output(
        replay([
          ...days,
          ...territory,
          corrected(XB, 't1', '2026-11-12T12:00:00+08:00', { players: [loss('ann'), win('bob')] }),
        ]),
      );
      // Then from level 14 / 2200: bob +12, ann 0; difference ann -12, bob +12 -> ann 2200, bob 2224.
      expect(standing(out, XB, 'ann')).toEqual({
        rating: 2200,
        games: 13,
        wins: 11,
        losses: 2,
        draws: 0,
        ranked: true,
        level: 14,
        captures: 110,
      });
      expect(standing(out, XB, 'bob')).toEqual({
        rating: 2224,
        games: 13,
        wins: 2,
        losses: 11,
        draws: 0,
        ranked: true,
        level: 14,
        captures: 110,
      });
    });
  });

  describe('squares', () => {
    // s1: ann wins with 0 left, bob 7 left: ann +20, bob -7 (winner cleared: full).
    // s2: ann wins with 2 left, bob 9: ann +20, bob -ceil(9/2) = -5. -> ann 40, bob -12.
    const games = [
      finished(SQ, 's1', '2026-11-29T10:00:00+08:00', [
        win('ann', { remaining: 0 }),
        loss('bob', { remaining: 7 }),
      ]),
      finished(SQ, 's2', '2026-11-29T11:00:00+08:00', [
        win('ann', { remaining: 2 }),
        loss('bob', { remaining: 9 }),
      ]),
    ];
    const notCleared = corrected(SQ, 's1', '2026-11-29T12:00:00+08:00', {
      players: [{ id: 'ann', remaining: 3 }, { id: 'bob' }],
    });

    it('Given a game, When a correction changes one field of one player, Then the other fields are kept and the loss is recomputed', () => {
      // When s1 is corrected: ann had 3 left (bob's fields unchanged: loss, 7 left)
      const out = output(replay([...games, notCleared]));
      // Then bob loses ceil(7/2) = 4 instead of 7: bob -12 + 3 = -9; ann still +20.
      expect(standing(out, SQ, 'ann')).toEqual({
        rating: 40,
        games: 2,
        wins: 2,
        losses: 0,
        draws: 0,
        ranked: true,
      });
      expect(standing(out, SQ, 'bob')).toEqual({
        rating: -9,
        games: 2,
        wins: 0,
        losses: 2,
        draws: 0,
        ranked: true,
      });
    });

    it('Given a corrected game, When a second correction swaps the result with a perfect bonus, Then it is relative to the first', () => {
      // When s1 becomes: bob wins with 3 left, ann loses with 7 left but perfect
      const swap = corrected(SQ, 's1', '2026-11-29T13:00:00+08:00', {
        players: [
          { id: 'bob', result: 'win', remaining: 3 },
          { id: 'ann', result: 'loss', remaining: 7, perfect: true },
        ],
      });
      const out = output(replay([...games, notCleared, swap]));
      // Then s1 now: bob +20, ann -ceil(7/2) + 1 = -3; current effect ann +20, bob -4:
      // ann 40 - 20 - 3 = 17, bob -9 + 4 + 20 = 15.
      expect(standing(out, SQ, 'ann')).toEqual({
        rating: 17,
        games: 2,
        wins: 1,
        losses: 1,
        draws: 0,
        ranked: true,
      });
      expect(standing(out, SQ, 'bob')).toEqual({
        rating: 15,
        games: 2,
        wins: 1,
        losses: 1,
        draws: 0,
        ranked: true,
      });
    });

    it('Given a game, When a correction makes a winner have more squares left than the loser, Then it is rejected (inconsistent-result)', () => {
      const bad = corrected(SQ, 's1', '2026-11-29T12:00:00+08:00', {
        players: [{ id: 'ann', remaining: 8 }, { id: 'bob' }],
      });
      const out = output(replay([...games, bad]));
      expect(out.rejected).toEqual([{ id: bad.id, reason: 'inconsistent-result' }]);
      expect(standing(out, SQ, 'bob')).toMatchObject({ rating: -12 });
    });
  });

  describe('card-points', () => {
    it('Given a three-player hand, When table points are corrected, Then the doubling is recomputed', () => {
      // Given ann out 1st (30 table), bob 2nd (20), cat holding cards (10 table, 15 in hand):
      // ann 30 + 20 = 50, bob 20, cat 10 - 20 - 15 = -25; not doubled. Records: win, draw, loss.
      const hand = finished(FK, 'h1', '2026-11-29T10:00:00+08:00', [
        { id: 'ann', seat: 0, tablePoints: 30, finishOrder: 1, handPoints: 0 },
        { id: 'bob', seat: 1, tablePoints: 20, finishOrder: 2, handPoints: 0 },
        { id: 'cat', seat: 2, tablePoints: 10, finishOrder: null, handPoints: 15 },
      ]);
      // When bob and cat are corrected to 0 table points
      const fix = corrected(FK, 'h1', '2026-11-29T11:00:00+08:00', {
        players: [{ id: 'bob', tablePoints: 0 }, { id: 'cat', tablePoints: 0 }, { id: 'ann' }],
      });
      const out = output(replay([hand, fix]));
      // Then ann 50, bob 0, cat -35; 2nd and 3rd won no table points: doubled -> 100, 0, -70.
      expect(standing(out, FK, 'ann')).toEqual({
        rating: 100,
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: true,
      });
      expect(standing(out, FK, 'bob')).toEqual({
        rating: 0,
        games: 1,
        wins: 0,
        losses: 0,
        draws: 1,
        ranked: true,
      });
      expect(standing(out, FK, 'cat')).toEqual({
        rating: -70,
        games: 1,
        wins: 0,
        losses: 1,
        draws: 0,
        ranked: true,
      });
    });

    it('Given a four-player hand with half points, When corrected twice, Then each correction replaces the previous one', () => {
      // Given seats ann 0, bob 1, cat 2, dan 3 (teams ann+cat v bob+dan); finish ann 1, bob 2, cat 3, dan holding.
      // card: ann 40 + 20 = 60, bob 25, cat 30, dan 10 - 20 - 6 = -16. Team ann+cat 90 wins, bob+dan 9;
      // losers won table points: not doubled. Points: ann, cat 45; bob, dan 4.5.
      const hand = finished(FK, 'h4', '2026-11-29T10:00:00+08:00', [
        { id: 'ann', seat: 0, tablePoints: 40, finishOrder: 1, handPoints: 0 },
        { id: 'bob', seat: 1, tablePoints: 25, finishOrder: 2, handPoints: 0 },
        { id: 'cat', seat: 2, tablePoints: 30, finishOrder: 3, handPoints: 0 },
        { id: 'dan', seat: 3, tablePoints: 10, finishOrder: null, handPoints: 6 },
      ]);
      // When dan's hand points are corrected to 1: dan -11, team 14 -> 7 each (+2.5)
      const first = corrected(FK, 'h4', '2026-11-29T11:00:00+08:00', {
        players: [{ id: 'ann' }, { id: 'bob' }, { id: 'cat' }, { id: 'dan', handPoints: 1 }],
      });
      const once = output(replay([hand, first]));
      expect(standing(once, FK, 'ann')).toMatchObject({ rating: 45, wins: 1 });
      expect(standing(once, FK, 'bob')).toMatchObject({ rating: 7, losses: 1 });
      expect(standing(once, FK, 'dan')).toMatchObject({ rating: 7, losses: 1 });
      // When table points are then corrected: ann 0, cat 0, bob 60, dan 45
      const second = corrected(FK, 'h4', '2026-11-29T12:00:00+08:00', {
        players: [
          { id: 'ann', tablePoints: 0 },
          { id: 'bob', tablePoints: 60 },
          { id: 'cat', tablePoints: 0 },
          { id: 'dan', tablePoints: 45 },
        ],
      });
      const twice = output(replay([hand, first, second]));
      // Then card ann 20, cat 0 -> 20; bob 60, dan 45 - 20 - 1 = 24 -> 84. bob+dan win; ann+cat hold first
      // place: not doubled. ann, cat 45 - 45 + 10 = 10; bob, dan 7 - 7 + 42 = 42.
      expect(standing(twice, FK, 'ann')).toEqual({
        rating: 10,
        games: 1,
        wins: 0,
        losses: 1,
        draws: 0,
        ranked: true,
      });
      expect(standing(twice, FK, 'cat')).toEqual({
        rating: 10,
        games: 1,
        wins: 0,
        losses: 1,
        draws: 0,
        ranked: true,
      });
      expect(standing(twice, FK, 'bob')).toEqual({
        rating: 42,
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: true,
      });
      expect(standing(twice, FK, 'dan')).toEqual({
        rating: 42,
        games: 1,
        wins: 1,
        losses: 0,
        draws: 0,
        ranked: true,
      });
    });

    it('Given a hand, When a correction states a result the hand does not give, Then it is rejected (inconsistent-result)', () => {
      const hand = finished(FK, 'h1', '2026-11-29T10:00:00+08:00', [
        { id: 'ann', seat: 0, tablePoints: 30, finishOrder: 1, handPoints: 0 },
        { id: 'bob', seat: 1, tablePoints: 20, finishOrder: 2, handPoints: 0 },
        { id: 'cat', seat: 2, tablePoints: 10, finishOrder: null, handPoints: 15 },
      ]);
      const bad = corrected(FK, 'h1', '2026-11-29T11:00:00+08:00', {
        players: [{ id: 'ann' }, { id: 'bob' }, { id: 'cat', result: 'win' }],
      });
      const out = output(replay([hand, bad]));
      expect(out.rejected).toEqual([{ id: bad.id, reason: 'inconsistent-result' }]);
      // cat keeps 10 - 20 - 15 = -25
      expect(standing(out, FK, 'cat')).toMatchObject({ rating: -25, losses: 1 });
    });
  });

  describe('games void on arrival', () => {
    const igDefault = {
      rating: 1600,
      games: 0,
      wins: 0,
      losses: 0,
      draws: 0,
      ranked: false,
      disconnects: 0,
    };

    it.each([
      ['a result', { players: [loss('ann'), win('bob')] }],
      ['void: true', { void: true as const }],
      ['results that do not fit one game', { players: [win('ann'), win('bob')] }],
    ])(
      'Given a same-ip game, When it is corrected with %s, Then nothing happens',
      (_what, body) => {
        // Given a same-ip game (void on arrival)
        const game = finished(IG, 'ip', '2026-11-23T10:00:00+08:00', [
          win('ann', { ip: '10.0.0.1' }),
          loss('bob', { ip: '10.0.0.1' }),
        ]);
        // When it is corrected
        const fix = corrected(IG, 'ip', '2026-11-23T11:00:00+08:00', body);
        const out = output(replay([game, fix]));
        // Then it stays void: no rating, no record; the correction is neither rejected nor listed under void.
        expectDefault(out, IG, 'ann', igDefault);
        expectDefault(out, IG, 'bob', igDefault);
        expect(out.void).toEqual([{ id: game.id, reason: 'same-ip' }]);
        expect(out.rejected).toEqual([]);
      },
    );

    it('Given a too-short xiangqi game, When it is corrected, Then it stays void', () => {
      // Given moves < 2: void (too-short)
      const game = finished(
        XQ,
        'short',
        '2026-11-29T10:00:00+08:00',
        [win('ann', { first: true }), loss('bob')],
        {
          moves: 1,
        },
      );
      const fix = corrected(XQ, 'short', '2026-11-29T11:00:00+08:00', {
        players: [draw('ann'), draw('bob')],
      });
      const out = output(replay([game, fix]));
      const defaults = {
        rating: 1300,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        title: '六级',
      };
      expectDefault(out, XQ, 'ann', defaults);
      expectDefault(out, XQ, 'bob', defaults);
      expect(out.void).toEqual([{ id: game.id, reason: 'too-short' }]);
      expect(out.rejected).toEqual([]);
    });

    it('Given a too-short territory game, When it is corrected, Then it stays void', () => {
      // Given a territory game of 9 moves (< 10): void
      const game = finished(XB, 'short', '2026-11-29T10:00:00+08:00', [win('ann'), loss('bob')], {
        moves: 9,
      });
      const fix = corrected(XB, 'short', '2026-11-29T11:00:00+08:00', {
        players: [loss('ann'), win('bob')],
      });
      const out = output(replay([game, fix]));
      const defaults = {
        rating: 0,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        level: 25,
        captures: 0,
      };
      expectDefault(out, XB, 'ann', defaults);
      expectDefault(out, XB, 'bob', defaults);
      expect(out.void).toEqual([{ id: game.id, reason: 'too-short' }]);
      expect(out.rejected).toEqual([]);
    });
  });

  describe('rejections and game ids', () => {
    const g1 = finished(QQ, 'g1', '2026-11-29T10:00:00+08:00', [win('ann'), loss('bob')]);

    it('Given no such game in the ladder, When it is corrected, Then the correction is rejected (unknown-game) and nothing changes', () => {
      // Given g1 in qq-gomoku only; the same game id in another ladder is another game
      const unknown = corrected(QQ, 'nope', '2026-11-29T11:00:00+08:00', { void: true });
      const otherLadder = corrected(IG, 'g1', '2026-11-29T11:00:00+08:00', {
        players: [loss('ann'), win('bob')],
      });
      const out = output(replay([g1, unknown, otherLadder]));
      expect(out.rejected).toEqual([
        { id: unknown.id, reason: 'unknown-game' },
        { id: otherLadder.id, reason: 'unknown-game' },
      ]);
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, wins: 1 });
    });

    it('Given a game, When a correction names a player who was not in it, Then it is rejected (inconsistent-result)', () => {
      const stranger = corrected(QQ, 'g1', '2026-11-29T11:00:00+08:00', {
        players: [loss('ann'), win('zed')],
      });
      const out = output(replay([g1, stranger]));
      expect(out.rejected).toEqual([{ id: stranger.id, reason: 'inconsistent-result' }]);
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, wins: 1 });
      expect(standing(out, QQ, 'zed')).toBeUndefined();
    });

    it('Given a game, When a correction has another player count, Then it is rejected (wrong-player-count)', () => {
      // qq-points takes two players; squares takes 2 or 4, but this game had 2
      const three = corrected(QQ, 'g1', '2026-11-29T11:00:00+08:00', {
        players: [loss('ann'), win('bob'), loss('cat')],
      });
      const sq = finished(SQ, 's1', '2026-11-29T10:00:00+08:00', [
        win('ann', { remaining: 1 }),
        loss('bob', { remaining: 5 }),
      ]);
      const four = corrected(SQ, 's1', '2026-11-29T11:00:00+08:00', {
        players: [
          { id: 'ann', result: 'win', remaining: 1, team: 'x' },
          { id: 'bob', result: 'loss', remaining: 5, team: 'y' },
          { id: 'cat', result: 'win', remaining: 1, team: 'x' },
          { id: 'dan', result: 'loss', remaining: 5, team: 'y' },
        ],
      });
      const out = output(replay([g1, three, sq, four]));
      expect(out.rejected).toEqual([
        { id: three.id, reason: 'wrong-player-count' },
        { id: four.id, reason: 'wrong-player-count' },
      ]);
      // ann +20, bob -ceil(5/2) = -3
      expect(standing(out, SQ, 'bob')).toMatchObject({ rating: -3, games: 1 });
      expect(standing(out, SQ, 'cat')).toBeUndefined();
    });

    it('Given two games with the same gameId, When that id is corrected, Then the latest game is the one corrected', () => {
      // Given g1: ann beats bob (10/-10); then another g1: cat beats dan (10/-10)
      const again = finished(QQ, 'g1', '2026-11-29T10:30:00+08:00', [win('cat'), loss('dan')]);
      // When g1 is voided
      const out = output(
        replay([g1, again, corrected(QQ, 'g1', '2026-11-29T11:00:00+08:00', { void: true })]),
      );
      // Then cat/dan's game is taken back; ann/bob's stays
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, games: 1 });
      expect(standing(out, QQ, 'bob')).toMatchObject({ rating: -10, games: 1 });
      const defaults = {
        rating: 0,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        title: '1级',
      };
      expectDefault(out, QQ, 'cat', defaults);
      expectDefault(out, QQ, 'dan', defaults);
    });

    it('Given a game, When a correction of it was rejected, Then the game and its players are unchanged', () => {
      const bad = corrected(QQ, 'g1', '2026-11-29T11:00:00+08:00', {
        players: [win('ann'), win('bob')],
      });
      const out = output(replay([g1, bad]));
      expect(out.rejected).toEqual([{ id: bad.id, reason: 'inconsistent-result' }]);
      expect(standing(out, QQ, 'ann')).toMatchObject({ rating: 10, wins: 1 });
      expect(standing(out, QQ, 'bob')).toMatchObject({ rating: -10, losses: 1 });
    });
  });
});
