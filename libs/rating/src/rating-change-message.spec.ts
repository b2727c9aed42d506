import type { PeriodClosed } from '@ranking/contracts';
import type { PlayerChange } from './player-change.js';
import {
  RATING_CHANGES_SUMMARY_OVER,
  ratingChangeMessage,
  readRatingChangeMessage,
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
const change: PlayerChange = {
  player: 'a',
  before: 10,
  after: 8,
  delta: -2,
  result: null,
  why: { kind: 'decay' } as unknown as PlayerChange['why'],
};

describe('rating-changes messages', () => {
  it('given a close that moved few players, then its changes with the period and key, read back as written', () => {
    const message = ratingChangeMessage(close, 7, [change], 1);
    expect(message).toEqual({
      eventId: close.id,
      ladder: 'qq-gomoku',
      seq: 7,
      type: 'period.closed',
      period: 'daily',
      key: '2026-11-29',
      changes: [change],
    });
    expect(readRatingChangeMessage(JSON.stringify(message))).toEqual(message);
  });

  it('given a close that moved many, then a summary with the count', () => {
    const message = ratingChangeMessage(close, 7, [change], RATING_CHANGES_SUMMARY_OVER + 1);
    expect(message).toMatchObject({ summary: true, moved: RATING_CHANGES_SUMMARY_OVER + 1 });
    expect(message).not.toHaveProperty('changes');
    expect(readRatingChangeMessage(JSON.stringify(message))).toEqual(message);
  });
});
