import type { LadderEvent, PlayerReport } from '@ranking/contracts';
import {
  ladderRegistry,
  LadderFold,
  type IngestResult,
  ReplayEngine,
  type ReplayOptions,
} from '@ranking/rating';
import { win, loss } from './reports.fixture.js';

// RULES.md "Annulment", one rule a test. Expected numbers are worked out by hand from RULES.md
// in the comment beside them (qq-points: d < 100, winner + 10 ∓ floor(d/10); igame-elo: 1600 v
// 1600 moves 16).

const LADDERS = ladderRegistry();
const QQ = 'qq-gomoku';
const IG = 'igame-gomoku';
const XQ = 'qq-xiangqi';
const XB = 'xinbo-go';

type Standing = Record<string, number | string | boolean>;
interface Output {
  ladders: Record<string, { players: Record<string, Standing> }>;
  rejected: { id: string | null; reason: string }[];
  void: { id: string | null; reason: string }[];
}

let counter = 0;
const nextId = (prefix = 'ev'): string => `${prefix}-${++counter}`;

function game(
  ladder: string,
  finishedAt: string,
  players: PlayerReport[],
  extra: Partial<LadderEvent> = {},
): LadderEvent {
  const id = nextId('game');
  return {
    id,
    type: 'game.finished',
    ladder,
    gameId: `g-${id}`,
    finishedAt,
    moves: 40,
    players,
    ...extra,
  } as LadderEvent;
}

/** An i.Game game between different addresses. */
const igame = (finishedAt: string, winner: string, loser: string, disconnected = false) =>
  game(IG, finishedAt, [
    win(winner, { ip: `10.0.0.${winner}` }),
    loss(loser, { ip: `10.0.0.${loser}`, disconnected }),
  ]);

const annul = (
  ladder: string,
  player: string,
  since: string,
  annulledAt: string,
  id = nextId('annul'),
): LadderEvent => ({
  id,
  type: 'player.annulled',
  ladder,
  player,
  since,
  annulledAt,
  note: 'fair-play review',
});

const correct = (
  of: LadderEvent,
  correctedAt: string,
  change: { void: true } | { players: PlayerReport[] },
): LadderEvent => ({
  id: nextId('fix'),
  type: 'game.corrected',
  ladder: of.ladder,
  gameId: (of as { gameId: string }).gameId,
  correctedAt,
  ...change,
});

const close = (ladder: string, period: 'weekly' | 'monthly', key: string): LadderEvent => ({
  id: `period.closed:${ladder}:${period}:${key}`,
  type: 'period.closed',
  ladder,
  period,
  key,
  start: '2026-01-01T00:00:00+08:00',
  end: '2026-01-01T00:00:00+08:00',
});

function replay(events: readonly LadderEvent[], options: Partial<ReplayOptions> = {}) {
  const engine = new ReplayEngine(LADDERS, { simulate: false, ...options });
  const results = events.map((e) => engine.ingestLine(JSON.stringify(e)));
  engine.finish(null);
  return { engine, results, out: JSON.parse([...engine.render()].join('')) as Output };
}

const playersOf = (out: Output, ladder: string) => out.ladders[ladder]?.players ?? {};
const last = (results: IngestResult[]): IngestResult => results[results.length - 1]!;

// Scenario A (qq-gomoku): ann beats bob before `since`, mal (the cheater) beats ann after it,
// ann beats bob again, then mal is annulled from 25 Nov.
const G1 = game(QQ, '2026-11-20T10:00:00+08:00', [win('ann'), loss('bob')]); // 0 v 0: ann 10, bob -10
const G2 = game(QQ, '2026-11-25T10:00:00+08:00', [win('mal'), loss('ann')]); // d 10, lower wins: mal 11, ann -1
const G3 = game(QQ, '2026-11-26T10:00:00+08:00', [win('ann'), loss('bob')]); // d 9: ann 9, bob -20
const ANNUL_MAL = annul(QQ, 'mal', '2026-11-25T00:00:00+08:00', '2026-11-27T12:00:00+08:00');
// Re-folded: G1 as before; G2 covered; G3 from 10 v -10: d 20, +8: ann 18, bob -18.
const REFOLDED = {
  ann: { rating: 18, games: 2, wins: 2, losses: 0, draws: 0, ranked: true, title: '1级' },
  bob: { rating: -18, games: 2, wins: 0, losses: 2, draws: 0, ranked: true, title: '2级' },
  // Its covered game still counts as rated: ranked (after 1 rated game), though no record.
  mal: { rating: 0, games: 0, wins: 0, losses: 0, draws: 0, ranked: true, title: '1级' },
};

describe('player.annulled (RULES.md "Annulment")', () => {
  describe('covered games', () => {
    it('Given mal beat ann after `since`, When mal is annulled, Then that game moves nothing and ann’s later game is re-rated from the new ratings', () => {
      const { results, out } = replay([G1, G2, G3, ANNUL_MAL]);
      expect(playersOf(out, QQ)).toEqual(REFOLDED);
      // What the annulment changed, from the ratings before it (ann 9, bob -20, mal 11).
      expect(last(results)).toMatchObject({
        kind: 'accepted',
        outcome: {
          status: 'applied',
          changes: [
            { player: 'ann', before: 9, after: 18, delta: 9, result: null },
            { player: 'bob', before: -20, after: -18, delta: 2, result: null },
            { player: 'mal', before: 11, after: 0, delta: -11, result: null },
          ],
        },
      });
      expect(out.rejected).toEqual([]);
      expect(out.void).toEqual([]);
    });

    it('Given one game at `since` exactly and one a second before, When mal is annulled, Then only the one at `since` is covered', () => {
      const before = game(QQ, '2026-11-24T23:59:59+08:00', [win('mal'), loss('bob')]); // mal 10, bob -10
      const at = game(QQ, '2026-11-25T00:00:00+08:00', [win('mal'), loss('ann')]); // d 10: mal 19, ann -9
      const { out } = replay([before, at, ANNUL_MAL]);
      expect(playersOf(out, QQ)).toEqual({
        ann: { rating: 0, games: 0, wins: 0, losses: 0, draws: 0, ranked: true, title: '1级' },
        bob: { rating: -10, games: 1, wins: 0, losses: 1, draws: 0, ranked: true, title: '2级' },
        mal: { rating: 10, games: 1, wins: 1, losses: 0, draws: 0, ranked: true, title: '1级' },
      });
    });

    it('Given a game of mal after the annulment, When it is folded, Then it is rated as usual (an annulment covers the past only)', () => {
      const after = game(QQ, '2026-11-28T10:00:00+08:00', [win('mal'), loss('bob')]);
      const { out } = replay([G1, G2, G3, ANNUL_MAL, after]);
      // mal 0 v bob -18: d 18, the higher wins: +9.
      expect(playersOf(out, QQ).mal).toMatchObject({ rating: 9, games: 1, wins: 1 });
      expect(playersOf(out, QQ).bob).toMatchObject({ rating: -27, games: 3, losses: 3 });
    });

    it('Given mal also played on another ladder after `since`, When mal is annulled on qq-gomoku, Then the other ladder is unchanged', () => {
      const xiangqi = game(XQ, '2026-11-26T11:00:00+08:00', [
        win('mal', { first: true }),
        loss('ann', { first: false }),
      ]);
      const without = replay([G1, G2, xiangqi, G3]).out;
      const { out } = replay([G1, G2, xiangqi, G3, ANNUL_MAL]);
      expect(playersOf(out, XQ)).toEqual(playersOf(without, XQ));
      expect(playersOf(out, XQ).mal).toMatchObject({ games: 1, wins: 1 });
    });
  });

  describe('corrections of covered games', () => {
    it('Given a covered game corrected before the annulment, When mal is annulled, Then the correction changes nothing', () => {
      const flipped = correct(G2, '2026-11-26T12:00:00+08:00', {
        players: [loss('mal'), win('ann')],
      });
      const { out } = replay([G1, G2, G3, flipped, ANNUL_MAL]);
      expect(playersOf(out, QQ)).toEqual(REFOLDED);
      expect(out.rejected).toEqual([]);
    });

    it('Given a covered game, When it is corrected after the annulment, Then the correction is accepted and changes nothing', () => {
      const flipped = correct(G2, '2026-11-28T12:00:00+08:00', {
        players: [loss('mal'), win('ann')],
      });
      const { out, results } = replay([G1, G2, G3, ANNUL_MAL, flipped]);
      expect(playersOf(out, QQ)).toEqual(REFOLDED);
      expect(last(results)).toMatchObject({ kind: 'accepted', outcome: { changes: [] } });
    });

    it('Given a covered game, When it is voided after the annulment and corrected again, Then it no longer counts as rated and stays void', () => {
      const voided = correct(G2, '2026-11-28T12:00:00+08:00', { void: true });
      const flipped = correct(G2, '2026-11-29T12:00:00+08:00', {
        players: [loss('mal'), win('ann')],
      });
      const { out } = replay([G1, G2, G3, ANNUL_MAL, voided, flipped]);
      // mal has no rated game left: back in the default state, so left out.
      expect(playersOf(out, QQ)).toEqual({ ann: REFOLDED.ann, bob: REFOLDED.bob });
    });

    it('Given a covered game voided and brought back before the annulment, When mal is annulled, Then the game is void for good', () => {
      const voided = correct(G2, '2026-11-26T11:00:00+08:00', { void: true });
      const back = correct(G2, '2026-11-26T12:00:00+08:00', {
        players: [win('mal'), loss('ann')],
      });
      const { out } = replay([G1, G2, G3, voided, back, ANNUL_MAL]);
      expect(playersOf(out, QQ)).toEqual({ ann: REFOLDED.ann, bob: REFOLDED.bob });
    });

    it('Given a correction of a covered game naming a stranger, When it comes before or after the annulment, Then it is rejected as before (an annulment changes no verdict)', () => {
      const stranger = () =>
        correct(G2, '2026-11-28T12:00:00+08:00', { players: [win('zed'), loss('ann')] });
      const before = stranger();
      const after = stranger();
      const { out } = replay([G1, G2, G3, before, ANNUL_MAL, after]);
      expect(out.rejected).toEqual([
        { id: before.id, reason: 'inconsistent-result' },
        { id: after.id, reason: 'inconsistent-result' },
      ]);
    });
  });

  describe('a covered game still counts as played', () => {
    it('Given ann’s 7 rated games of a week, 6 against mal, When mal is annulled, Then the weekly quota counts all 7', () => {
      // Week 2026-W48: Monday 23 Nov 06:00 to Monday 30 Nov 06:00 (Asia/Taipei).
      const covered = [0, 1, 2, 3, 4, 5].map((k) =>
        igame(`2026-11-23T10:${k}0:00+08:00`, 'mal', 'ann'),
      );
      const annBob = igame('2026-11-24T10:00:00+08:00', 'ann', 'bob'); // 1600 v 1600 (covered games moved nothing): 1616 / 1584
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-23T00:00:00+08:00',
        '2026-11-25T12:00:00+08:00',
      );
      const { out } = replay([...covered, annBob, malAnnulled, close(IG, 'weekly', '2026-W48')]);
      const base = { wins: 0, losses: 0, draws: 0, ranked: false, disconnects: 0 };
      expect(playersOf(out, IG)).toEqual({
        // 7 rated games in the week: no -30.
        ann: { ...base, rating: 1616, games: 1, wins: 1 },
        // 1 and 6: -30 each.
        bob: { ...base, rating: 1554, games: 1, losses: 1 },
        mal: { ...base, rating: 1570, games: 0 },
      });
    });

    it('Given the same week, When one covered game is voided before the close, Then the quota counts it no more', () => {
      const covered = [0, 1, 2, 3, 4, 5].map((k) =>
        igame(`2026-11-23T10:${k}0:00+08:00`, 'mal', 'ann'),
      );
      const annBob = igame('2026-11-24T10:00:00+08:00', 'ann', 'bob');
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-23T00:00:00+08:00',
        '2026-11-25T12:00:00+08:00',
      );
      const voided = correct(covered[0]!, '2026-11-26T12:00:00+08:00', { void: true });
      const { out } = replay([
        ...covered,
        annBob,
        malAnnulled,
        voided,
        close(IG, 'weekly', '2026-W48'),
      ]);
      // ann 6 rated games in the week: 1616 - 30; mal 5: 1600 - 30.
      expect(playersOf(out, IG).ann).toMatchObject({ rating: 1586, games: 1 });
      expect(playersOf(out, IG).mal).toMatchObject({ rating: 1570, games: 0 });
    });

    it('Given ann’s only November game is covered, When November closes, Then ann is not inactive (and is once that game is voided)', () => {
      const october = igame('2026-10-10T10:00:00+08:00', 'ann', 'bob'); // 1616 / 1584
      const november = igame('2026-11-10T10:00:00+08:00', 'mal', 'ann');
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-01T00:00:00+08:00',
        '2026-11-20T12:00:00+08:00',
      );
      const month = close(IG, 'monthly', '2026-11');
      const kept = replay([october, november, malAnnulled, month]).out;
      // bob: rated before, none in November: -200. ann and mal have the covered game.
      expect(playersOf(kept, IG)).toMatchObject({
        ann: { rating: 1616, games: 1 },
        bob: { rating: 1384, games: 1 },
        mal: { rating: 1600, games: 0 },
      });
      const voided = correct(november, '2026-11-21T12:00:00+08:00', { void: true });
      const { out } = replay([october, november, malAnnulled, voided, month]);
      // ann now has no November game: -200. mal has no rated game at all: not active, left out.
      expect(playersOf(out, IG).ann).toMatchObject({ rating: 1416 });
      expect(playersOf(out, IG).mal).toBeUndefined();
    });

    it('Given ann’s 20th rated game is covered, When mal is annulled, Then ann is still ranked (20 rated games, 19 in the record)', () => {
      const games = Array.from({ length: 19 }, (_, k) =>
        igame(`2026-11-2${k % 5}T1${k % 10}:00:00+08:00`, 'ann', 'bob'),
      );
      const covered = igame('2026-11-26T10:00:00+08:00', 'mal', 'ann');
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-26T00:00:00+08:00',
        '2026-11-27T12:00:00+08:00',
      );
      const { out } = replay([...games, covered, malAnnulled]);
      expect(playersOf(out, IG).ann).toMatchObject({ games: 19, wins: 19, ranked: true });
      expect(playersOf(out, IG).bob).toMatchObject({ games: 19, ranked: false });
    });

    it('Given ann disconnected in 3 covered games, When mal is annulled, Then the disconnects still count', () => {
      const covered = [1, 2, 3].map((k) =>
        igame(`2026-11-26T1${k}:00:00+08:00`, 'mal', 'ann', true),
      );
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-26T00:00:00+08:00',
        '2026-11-27T12:00:00+08:00',
      );
      const { out } = replay([...covered, malAnnulled]);
      expect(playersOf(out, IG).ann).toEqual({
        rating: 1600,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        ranked: false,
        disconnects: 3,
      });
    });
  });

  describe('--simulate', () => {
    it('Given a disconnect penalty and a weekly close that --simulate added, When mal is annulled, Then both are folded where they stand, on the new ratings, and nothing is added', () => {
      // ann disconnects in 5 losses to mal on Monday 23 Nov: the 5th adds a -100 penalty.
      const covered = [1, 2, 3, 4, 5].map((k) =>
        igame(`2026-11-23T1${k}:00:00+08:00`, 'mal', 'ann', true),
      );
      // annulledAt after Monday 30 Nov 06:00 closes W48 first (and November on 1 Dec 06:00).
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-23T00:00:00+08:00',
        '2026-12-01T12:00:00+08:00',
      );
      const { out, engine } = replay([...covered, malAnnulled], { simulate: true });
      // ann: 1600 (covered) - 100 (the penalty) - 30 (5 of 7 weekly games); November was played.
      // mal: 1600 - 30.
      expect(playersOf(out, IG)).toEqual({
        ann: {
          rating: 1470,
          games: 0,
          wins: 0,
          losses: 0,
          draws: 0,
          ranked: false,
          disconnects: 0,
        },
        mal: {
          rating: 1570,
          games: 0,
          wins: 0,
          losses: 0,
          draws: 0,
          ranked: false,
          disconnects: 0,
        },
      });
      // The log holds the one penalty, and the closes before the annulment, once each.
      const log = (engine.ladderFolds.get(IG)!.snapshot().log ?? []).map(
        (text) => JSON.parse(text) as LadderEvent,
      );
      expect(log.filter((e) => e.type === 'player.penalized').map((e) => e.id)).toEqual([
        'player.penalized:igame-gomoku:ann:disconnects:1',
      ]);
      expect(log.map((e) => e.type).slice(-4)).toEqual([
        'period.closed',
        'period.closed',
        'period.closed',
        'player.annulled',
      ]);
    });

    it('Given a week with one game, When an annulment covering nothing comes after the week, Then annulledAt moves the clock and the week closes', () => {
      const annBob = igame('2026-11-24T10:00:00+08:00', 'ann', 'bob'); // 1616 / 1584
      const nobody = annul(IG, 'zed', '2026-11-01T00:00:00+08:00', '2026-12-01T12:00:00+08:00');
      const without = replay([annBob], { simulate: true }).out;
      expect(playersOf(without, IG)).toMatchObject({
        ann: { rating: 1616 },
        bob: { rating: 1584 },
      });
      const { out } = replay([annBob, nobody], { simulate: true });
      // W48 closed at 30 Nov 06:00: one game each, -30. November had a game each: no -200.
      expect(playersOf(out, IG)).toMatchObject({ ann: { rating: 1586 }, bob: { rating: 1554 } });
    });
  });

  describe('several annulments, none, and the lists', () => {
    it('Given mal annulled, then playing again, When mal is annulled again, Then both annulments’ games are covered, and a third covering nothing new changes nothing', () => {
      const g1 = game(QQ, '2026-11-25T10:00:00+08:00', [win('mal'), loss('ann')]);
      const first = annul(QQ, 'mal', '2026-11-25T00:00:00+08:00', '2026-11-26T00:00:00+08:00');
      const g2 = game(QQ, '2026-11-27T10:00:00+08:00', [win('mal'), loss('bob')]); // mal 10, bob -10
      const g3 = game(QQ, '2026-11-27T12:00:00+08:00', [win('ann'), loss('bob')]); // d 10: ann 9, bob -19
      const second = annul(QQ, 'mal', '2026-11-27T00:00:00+08:00', '2026-11-28T00:00:00+08:00');
      const third = annul(QQ, 'mal', '2026-11-25T00:00:00+08:00', '2026-11-29T00:00:00+08:00');
      const { out, results } = replay([g1, first, g2, g3, second, third]);
      // g1 and g2 covered; g3 from 0 v 0: ann 10, bob -10.
      expect(results[4]).toMatchObject({
        outcome: {
          changes: [
            { player: 'mal', before: 10, after: 0 },
            { player: 'ann', before: 9, after: 10 },
            { player: 'bob', before: -19, after: -10 },
          ],
        },
      });
      expect(results[5]).toMatchObject({ kind: 'accepted', outcome: { changes: [] } });
      expect(playersOf(out, QQ)).toEqual({
        ann: { rating: 10, games: 1, wins: 1, losses: 0, draws: 0, ranked: true, title: '1级' },
        bob: { rating: -10, games: 1, wins: 0, losses: 1, draws: 0, ranked: true, title: '2级' },
        mal: { rating: 0, games: 0, wins: 0, losses: 0, draws: 0, ranked: true, title: '1级' },
      });
    });

    it('Given a player with no covered game, When annulled, Then the annulment is accepted, its id remembered, and nothing changes', () => {
      const zed = annul(QQ, 'zed', '2026-11-01T00:00:00+08:00', '2026-11-27T12:00:00+08:00');
      const late = annul(QQ, 'mal', '2026-11-27T00:00:00+08:00', '2026-11-27T12:00:00+08:00');
      const without = replay([G1, G2, G3]).out;
      const { out, results } = replay([G1, G2, G3, zed, late, zed]);
      expect(results.slice(3)).toMatchObject([
        { kind: 'accepted', outcome: { status: 'applied', changes: [] } },
        { kind: 'accepted', outcome: { status: 'applied', changes: [] } },
        { kind: 'duplicate', id: zed.id },
      ]);
      expect(out).toEqual(without);
    });

    it('Given mal’s games on xinbo-go, When mal is annulled, Then the captures of the covered game are not credited and leave room in the daily cap', () => {
      const capture = (players: PlayerReport[], at: string) =>
        game(XB, at, players, { context: { kind: 'capture', captureTarget: 5 } });
      const covered = capture(
        [win('kid', { captures: 6 }), loss('mal', { captures: 2 })],
        '2026-11-25T10:00:00+08:00',
      );
      const later = capture(
        [win('kid', { captures: 6 }), loss('bob', { captures: 1 })],
        '2026-11-25T11:00:00+08:00',
      );
      // Without the annulment: kid 6, then 4 more (cap 10 a day) = 10.
      expect(playersOf(replay([covered, later]).out, XB).kid).toMatchObject({ captures: 10 });
      const { out } = replay([
        covered,
        later,
        annul(XB, 'mal', '2026-11-25T00:00:00+08:00', '2026-11-26T12:00:00+08:00'),
      ]);
      expect(playersOf(out, XB)).toEqual({
        bob: {
          rating: 0,
          games: 1,
          wins: 0,
          losses: 1,
          draws: 0,
          ranked: true,
          level: 25,
          captures: 1,
        },
        kid: {
          rating: 0,
          games: 1,
          wins: 1,
          losses: 0,
          draws: 0,
          ranked: true,
          level: 25,
          captures: 6,
        },
        mal: {
          rating: 0,
          games: 0,
          wins: 0,
          losses: 0,
          draws: 0,
          ranked: true,
          level: 25,
          captures: 0,
        },
      });
    });

    it('Given a void game and a covered game of mal, When mal is annulled, Then the void game is listed once and the covered one not at all', () => {
      const sameIp = game(IG, '2026-11-25T09:00:00+08:00', [
        win('mal', { ip: '10.9.9.9' }),
        loss('ann', { ip: '10.9.9.9' }),
      ]);
      const covered = igame('2026-11-25T10:00:00+08:00', 'mal', 'ann');
      const malAnnulled = annul(
        IG,
        'mal',
        '2026-11-25T00:00:00+08:00',
        '2026-11-26T12:00:00+08:00',
      );
      const { out } = replay([sameIp, covered, malAnnulled]);
      expect(out.void).toEqual([{ id: sameIp.id, reason: 'same-ip' }]);
    });
  });

  describe('the re-fold as a function (for a caller holding the log)', () => {
    it('Given a ladder’s log with an annulment, When LadderFold.fromLog folds it, Then it holds what the replay holds', () => {
      const log = [G1, G2, G3, ANNUL_MAL];
      const fold = LadderFold.fromLog(LADDERS.get(QQ)!, log);
      const replayed = replay(log).engine.ladderFolds.get(QQ)!;
      expect([...fold.players.values()]).toEqual([...replayed.players.values()]);
      expect([...fold.encodedGames()]).toEqual([...replayed.encodedGames()]);
      // The covered game's record says so, in the text the rating service stores.
      expect(fold.changedGames().get((G2 as { gameId: string }).gameId)).toMatch(/,1\]$/);
    });

    it('Given a fold restored from rows (no log), When an annulment arrives, Then it fails with an error naming the ladder', () => {
      const head = replay([G1, G2, G3]).engine.ladderFolds.get(QQ)!;
      const { log: _log, ...rows } = head.snapshot();
      const restored = LadderFold.restore(LADDERS.get(QQ)!, rows);
      expect(() => restored.evolve(ANNUL_MAL)).toThrow(
        `ladder qq-gomoku: player.annulled ${ANNUL_MAL.id} re-folds the ladder from its log, which this fold does not keep`,
      );
    });

    it('Given an engine told to keep no log of qq-gomoku, When an annulment of it arrives, Then it fails with an error', () => {
      expect(() => replay([G1, G2, ANNUL_MAL], { keepLogs: new Set([IG]) })).toThrow(
        /re-folds the ladder from its log/,
      );
    });

    it('Given a snapshot taken before the annulment, When restored and continued, Then the annulment re-folds from the kept log', () => {
      const head = replay([G1, G2, G3]).engine;
      const resumed = ReplayEngine.restore(
        LADDERS,
        JSON.parse(JSON.stringify(head.snapshot())) as ReturnType<ReplayEngine['snapshot']>,
      );
      resumed.ingestLine(JSON.stringify(ANNUL_MAL));
      const out = JSON.parse([...resumed.render()].join('')) as Output;
      expect(playersOf(out, QQ)).toEqual(REFOLDED);
    });
  });
});
