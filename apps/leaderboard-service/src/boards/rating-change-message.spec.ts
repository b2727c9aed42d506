import type { ListedChange, RatingChangesMessage } from '@ranking/contracts';
import { boardWork } from './rating-change-message.js';

const change = (player: string): ListedChange => ({
  player,
  before: 1600,
  after: 1616,
  delta: 16,
  result: 'win',
  why: { kind: 'elo' },
  standing: { games: 3, wins: 2, losses: 1, draws: 0, ratedGames: 3, level: 25 },
});
const work = (message: RatingChangesMessage) => boardWork(JSON.stringify(message));

describe('boardWork', () => {
  it('given a game, then the live board takes the listed rows, in the ladder’s order of messages', () => {
    expect(
      work({
        eventId: 'e1',
        ladder: 'qq-gomoku',
        seq: 3,
        previousSeq: 1,
        type: 'game.finished',
        changes: [change('a'), change('b')],
      }),
    ).toEqual([
      {
        kind: 'live',
        ladder: 'qq-gomoku',
        change: { seq: 3, previousSeq: 1, changes: [change('a'), change('b')] },
      },
    ]);
  });

  it('given a correction or a penalty, then the rows it lists', () => {
    const head = { eventId: 'e2', ladder: 'igame-gomoku', seq: 4, previousSeq: 3 };
    expect(work({ ...head, type: 'game.corrected', changes: [change('a')] })).toEqual([
      {
        kind: 'live',
        ladder: 'igame-gomoku',
        change: { seq: 4, previousSeq: 3, changes: [change('a')] },
      },
    ]);
    expect(work({ ...head, type: 'player.penalized', changes: [change('b')] })).toEqual([
      {
        kind: 'live',
        ladder: 'igame-gomoku',
        change: { seq: 4, previousSeq: 3, changes: [change('b')] },
      },
    ]);
  });

  it('given a message that moved nobody, then it still takes its place in the order (no false gap after it)', () => {
    expect(
      work({
        eventId: 'e3',
        ladder: 'qq-gomoku',
        seq: 8,
        previousSeq: 5,
        type: 'game.finished',
        changes: [],
      }),
    ).toEqual([
      { kind: 'live', ladder: 'qq-gomoku', change: { seq: 8, previousSeq: 5, changes: [] } },
    ]);
  });

  it('given a daily close listing its changes, then those rows and its daily board', () => {
    expect(
      work({
        eventId: 'period.closed:xinbo-go:daily:2026-11-29',
        ladder: 'xinbo-go',
        seq: 9,
        previousSeq: 7,
        type: 'period.closed',
        period: 'daily',
        key: '2026-11-29',
        changes: [change('a')],
      }),
    ).toEqual([
      {
        kind: 'live',
        ladder: 'xinbo-go',
        change: { seq: 9, previousSeq: 7, changes: [change('a')] },
      },
      { kind: 'daily', ladder: 'xinbo-go', key: '2026-11-29' },
    ]);
  });

  it('given a daily close, then the day comes from its key, never from its event id', () => {
    const result = work({
      eventId: 'period.closed:xinbo-go:daily:1999-01-01',
      ladder: 'xinbo-go',
      seq: 9,
      previousSeq: 7,
      type: 'period.closed',
      period: 'daily',
      key: '2026-11-29',
      changes: [],
    });
    expect(result).toContainEqual({ kind: 'daily', ladder: 'xinbo-go', key: '2026-11-29' });
  });

  it('given a summary of a big close, then a read of the whole live board, and the daily board', () => {
    expect(
      work({
        eventId: 'x',
        ladder: 'igame-gomoku',
        seq: 9,
        previousSeq: 2,
        type: 'period.closed',
        summary: true,
        moved: 500,
        period: 'daily',
        key: '2026-11-29',
      }),
    ).toEqual([
      { kind: 'live', ladder: 'igame-gomoku', change: { seq: 9, previousSeq: 2, changes: null } },
      { kind: 'daily', ladder: 'igame-gomoku', key: '2026-11-29' },
    ]);
  });

  it('given a weekly close, then no daily board', () => {
    expect(
      work({
        eventId: 'period.closed:igame-gomoku:weekly:2026-W48',
        ladder: 'igame-gomoku',
        seq: 9,
        previousSeq: 8,
        type: 'period.closed',
        period: 'weekly',
        key: '2026-W48',
        changes: [change('a')],
      }),
    ).toEqual([
      {
        kind: 'live',
        ladder: 'igame-gomoku',
        change: { seq: 9, previousSeq: 8, changes: [change('a')] },
      },
    ]);
  });

  it('given an annulment, then a read of the whole live board (past daily boards stay as they were)', () => {
    expect(
      work({
        eventId: 'annul-1',
        ladder: 'igame-gomoku',
        seq: 12,
        previousSeq: 11,
        type: 'player.annulled',
        player: 'mallory',
        summary: true,
        moved: 37,
      }),
    ).toEqual([
      { kind: 'live', ladder: 'igame-gomoku', change: { seq: 12, previousSeq: 11, changes: null } },
    ]);
  });

  it.each([
    '{',
    '[]',
    '{"ladder":"x"}',
    '{"ladder":"x","type":"game.finished"}',
    '{"eventId":"e","ladder":"x","seq":1,"previousSeq":0,"type":"game.finished","changes":[{"who":"a"}]}',
    '{"eventId":"e","ladder":"x","seq":1,"previousSeq":0,"type":"period.closed","changes":[]}',
    '{"eventId":"e","ladder":"x","seq":1,"previousSeq":0,"type":"game.finished","summary":true}',
    '{"eventId":"e","ladder":"x","seq":1,"previousSeq":0,"type":"player.annulled","summary":true,"moved":3}',
    // Written before the messages carried the board: no previous seq, no standings.
    '{"eventId":"e","ladder":"x","seq":1,"type":"game.finished","changes":[]}',
    '{"eventId":"e","ladder":"x","seq":1,"previousSeq":0,"type":"game.finished","changes":[{"player":"a","before":1,"after":2,"delta":1,"result":"win","why":{"kind":"elo"}}]}',
  ])('given %s, then a reason to skip it', (text) => {
    expect(typeof boardWork(text)).toBe('string');
  });

  it('given no value or bytes that are not UTF-8, then a reason to skip it', () => {
    expect(typeof boardWork(null)).toBe('string');
    expect(typeof boardWork(Buffer.from([0xff, 0xfe, 0x00]))).toBe('string');
  });
});
