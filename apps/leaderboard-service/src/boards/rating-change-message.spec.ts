import { boardWork } from './rating-change-message.js';

describe('boardWork', () => {
  it('given a game, then the players whose rows moved', () => {
    const work = boardWork(
      JSON.stringify({
        eventId: 'e1',
        ladder: 'qq-gomoku',
        seq: 3,
        type: 'game.finished',
        changes: [{ player: 'a' }, { player: 'b' }],
      }),
    );
    expect(work).toEqual([{ kind: 'players', ladder: 'qq-gomoku', players: ['a', 'b'] }]);
  });

  it('given a daily close listing its changes, then its daily board', () => {
    const work = boardWork(
      JSON.stringify({
        eventId: 'period.closed:xinbo-go:daily:2026-11-29',
        ladder: 'xinbo-go',
        seq: 9,
        type: 'period.closed',
        period: 'daily',
        key: '2026-11-29',
        changes: [],
      }),
    );
    expect(work).toEqual([{ kind: 'daily', ladder: 'xinbo-go', key: '2026-11-29' }]);
  });

  it('given a summary of a big close, then the whole live board and the daily board', () => {
    const work = boardWork(
      JSON.stringify({
        eventId: 'x',
        ladder: 'igame-gomoku',
        seq: 9,
        type: 'period.closed',
        summary: true,
        moved: 500,
        period: 'daily',
        key: '2026-11-29',
      }),
    );
    expect(work).toEqual([
      { kind: 'live', ladder: 'igame-gomoku' },
      { kind: 'daily', ladder: 'igame-gomoku', key: '2026-11-29' },
    ]);
  });

  it('given a weekly close, then no daily board', () => {
    const work = boardWork(
      JSON.stringify({
        eventId: 'period.closed:igame-gomoku:weekly:2026-W48',
        ladder: 'igame-gomoku',
        seq: 9,
        type: 'period.closed',
        period: 'weekly',
        key: '2026-W48',
        changes: [{ player: 'a' }],
      }),
    );
    expect(work).toEqual([{ kind: 'players', ladder: 'igame-gomoku', players: ['a'] }]);
  });

  it.each([
    '{',
    '[]',
    '{"ladder":"x"}',
    '{"ladder":"x","type":"game.finished"}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"game.finished","changes":[{"who":"a"}]}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"period.closed","changes":[]}',
    '{"eventId":"e","ladder":"x","seq":1,"type":"game.finished","summary":true}',
  ])('given %s, then a reason to skip it', (text) => {
    expect(typeof boardWork(text)).toBe('string');
  });
});
