import {
  type GameFinished,
  type PeriodClosed,
  type PlayerAnnulled,
  type PlayerPenalized,
  readRatingChanges,
} from '@ranking/contracts';
import type { PlayerChange } from './player-change.js';
import {
  annulmentMessage,
  type MovedPlayer,
  RATING_CHANGES_SUMMARY_OVER,
  ratingChangeMessage,
} from './rating-change-message.js';

const close: PeriodClosed = {
  id: 'period.closed:qq-gomoku:daily:2026-11-29',
  type: 'period.closed',
  ladder: 'qq-gomoku',
  period: 'daily',
  key: '2026-11-29',
  start: '2026-11-29T06:00:00+08:00',
  end: '2026-11-30T06:00:00+08:00',
};
const game: GameFinished = {
  id: 'g-1',
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId: 'g-1',
  finishedAt: '2026-11-29T13:05:00+08:00',
  moves: 41,
  players: [
    { id: 'a', result: 'win' },
    { id: 'b', result: 'loss' },
  ],
};
const penalty: PlayerPenalized = {
  id: 'p-1',
  type: 'player.penalized',
  ladder: 'igame-gomoku',
  player: 'b',
  points: -100,
  reason: 'disconnects',
  at: '2026-11-29T13:05:00+08:00',
};
const annulled: PlayerAnnulled = {
  id: 'x-1',
  type: 'player.annulled',
  ladder: 'igame-gomoku',
  player: 'mallory',
  since: '2026-11-01T00:00:00Z',
  annulledAt: '2026-11-30T00:00:00Z',
};
const change: PlayerChange = {
  player: 'a',
  before: 1600,
  after: 1616,
  delta: 16,
  result: 'win',
  why: { kind: 'elo', k: 32, expected: 0.5, score: 1 },
};
const penalized: PlayerChange = {
  player: 'b',
  before: 1584,
  after: 1484,
  delta: -100,
  result: null,
  why: { kind: 'penalty', reason: 'disconnects', points: -100, floor: 100 },
};

const standing = { games: 9, wins: 5, losses: 3, draws: 1, ratedGames: 9, level: 25 };
/** As the rating history holds it: the fold's record is wider than the board fields. */
const movedA: MovedPlayer = {
  change,
  standing: { ...standing, rating: 1616, captures: 3 } as typeof standing,
  skill: { after: { mu: 26.2, sigma: 8.1, lastPlayedAt: 5 } as { mu: number; sigma: number } },
};
const movedB: MovedPlayer = { change: penalized, standing, skill: null };
const place = (seq: number, previousSeq: number) => ({ seq, previousSeq });

/** The contract's reader takes back exactly what the producer wrote. */
const readsBack = (message: unknown) =>
  expect(readRatingChanges(JSON.stringify(message))).toEqual({ ok: true, message });

describe('rating-changes messages', () => {
  it('given a game, then its changes with the board standing and the estimate after it, its previous message, read back as written', () => {
    const message = ratingChangeMessage(game, place(3, 1), [movedA], 2);
    expect(message).toEqual({
      eventId: 'g-1',
      ladder: 'igame-gomoku',
      seq: 3,
      previousSeq: 1,
      type: 'game.finished',
      changes: [{ ...change, standing, skill: { mu: 26.2, sigma: 8.1 } }],
    });
    // Members in the wire's order: the head, then each change's own before its standing.
    expect(JSON.stringify(message)).toMatch(
      /^\{"eventId":"g-1","ladder":"igame-gomoku","seq":3,"previousSeq":1,"type":"game.finished","changes":\[\{"player":"a",.*"why":\{.*\},"standing":\{"games":9,"wins":5,"losses":3,"draws":1,"ratedGames":9,"level":25\},"skill":\{"mu":26.2,"sigma":8.1\}\}\]\}$/,
    );
    readsBack(message);
  });

  it('given a penalty (the estimate unmoved), then its change without a skill, read back as written', () => {
    const message = ratingChangeMessage(penalty, place(4, 3), [movedB], 1);
    expect(message).toMatchObject({
      type: 'player.penalized',
      previousSeq: 3,
      changes: [{ ...penalized, standing }],
    });
    expect(message).not.toHaveProperty('changes.0.skill');
    readsBack(message);
  });

  it('given a close that moved few players, then its changes with the period and key, read back as written', () => {
    const message = ratingChangeMessage(close, place(7, 0), [movedB], 1);
    expect(message).toEqual({
      eventId: close.id,
      ladder: 'qq-gomoku',
      seq: 7,
      previousSeq: 0,
      type: 'period.closed',
      period: 'daily',
      key: '2026-11-29',
      changes: [{ ...penalized, standing }],
    });
    readsBack(message);
  });

  it('given a close that moved many, then a summary with the count and no players', () => {
    const message = ratingChangeMessage(
      close,
      place(7, 5),
      [movedA],
      RATING_CHANGES_SUMMARY_OVER + 1,
    );
    expect(message).toMatchObject({
      previousSeq: 5,
      summary: true,
      moved: RATING_CHANGES_SUMMARY_OVER + 1,
    });
    expect(message).not.toHaveProperty('changes');
    readsBack(message);
  });

  it('given an annulment, then a summary with the player and how many players moved', () => {
    const message = annulmentMessage(annulled, place(9, 8), 42);
    expect(message).toEqual({
      eventId: 'x-1',
      ladder: 'igame-gomoku',
      seq: 9,
      previousSeq: 8,
      type: 'player.annulled',
      player: 'mallory',
      summary: true,
      moved: 42,
    });
    readsBack(message);
  });
});
