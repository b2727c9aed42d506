import type { RatingChange, RatingChangesMessage } from '@ranking/contracts';
import { boardWork } from './rating-change-message.js';

const change = (player: string): RatingChange => ({
  player,
  before: 1600,
  after: 1616,
  delta: 16,
  result: 'win',
  why: { kind: 'elo' },
});
const work = (message: RatingChangesMessage) => boardWork(JSON.stringify(message));

describe('boardWork', () => {
  it('given a game, then the players whose rows moved', () => {
    expect(
      work({
        eventId: 'e1',
        ladder: 'qq-gomoku',
        seq: 3,
        type: 'game.finished',
        changes: [change('a'), change('b')],
      }),
    ).toEqual([{ kind: 'players', ladder: 'qq-gomoku', players: ['a', 'b'] }]);
  });

  it('given a correction or a penalty, then the players it moved', () => {
    const head = { eventId: 'e2', ladder: 'igame-gomoku', seq: 4 };
    expect(work({ ...head, type: 'game.corrected', changes: [change('a')] })).toEqual([
      { kind: 'players', ladder: 'igame-gomoku', players: ['a'] },
    ]);
    expect(work({ ...head, type: 'player.penalized', changes: [change('b')] })).toEqual([
      { kind: 'players', ladder: 'igame-gomoku', players: ['b'] },
    ]);
  });

  it('given a daily close listing its changes, then its daily board', () => {
    expect(
      work({
        eventId: 'period.closed:xinbo-go:daily:2026-11-29',
        ladder: 'xinbo-go',
        seq: 9,
        type: 'period.closed',
        period: 'daily',
        key: '2026-11-29',
        changes: [],
      }),
    ).toEqual([{ kind: 'daily', ladder: 'xinbo-go', key: '2026-11-29' }]);
  });

  it('given a daily close, then the day comes from its key, never from its event id', () => {
    expect(
      work({
        eventId: 'period.closed:xinbo-go:daily:1999-01-01',
        ladder: 'xinbo-go',
        seq: 9,
        type: 'period.closed',
        period: 'daily',
        key: '2026-11-29',
        changes: [],
      }),
    ).toEqual([{ kind: 'daily', ladder: 'xinbo-go', key: '2026-11-29' }]);
  });

  it('given a summary of a big close, then the whole live board and the daily board', () => {
    expect(
      work({
        eventId: 'x',
        ladder: 'igame-gomoku',
        seq: 9,
        type: 'period.closed',
        summary: true,
        moved: 500,
        period: 'daily',
        key: '2026-11-29',
      }),
    ).toEqual([
      { kind: 'live', ladder: 'igame-gomoku' },
      { kind: 'daily', ladder: 'igame-gomoku', key: '2026-11-29' },
    ]);
  });

  it('given a weekly close, then no daily board', () => {
    expect(
      work({
        eventId: 'period.closed:igame-gomoku:weekly:2026-W48',
        ladder: 'igame-gomoku',
        seq: 9,
        type: 'period.closed',
        period: 'weekly',
        key: '2026-W48',
        changes: [change('a')],
      }),
    ).toEqual([{ kind: 'players', ladder: 'igame-gomoku', players: ['a'] }]);
  });

  it('given an annulment, then the whole live board (past daily boards stay as they were)', () => {
    expect(
      work({
        eventId: 'annul-1',
        ladder: 'igame-gomoku',
        seq: 12,
        type: 'player.annulled',
        player: 'mallory',
        summary: true,
        moved: 37,
      }),
    ).toEqual([{ kind: 'live', ladder: 'igame-gomoku' }]);
  });

  it.each([
    '{',
    '[]',
    '{"ladder":"x"}',
    '{"ladder":"x","type":"game.finished"}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"game.finished","changes":[{"who":"a"}]}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"period.closed","changes":[]}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"game.finished","summary":true}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"player.annulled","summary":true,"moved":3}',
  ])('given %s, then a reason to skip it', (text) => {
    expect(typeof boardWork(text)).toBe('string');
  });

  it('given no value or bytes that are not UTF-8, then a reason to skip it', () => {
    expect(typeof boardWork(null)).toBe('string');
    expect(typeof boardWork(Buffer.from([0xff, 0xfe, 0x00]))).toBe('string');
  });
});
