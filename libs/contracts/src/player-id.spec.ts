import { isPlayerId } from './player-id.js';
import { parseEvent } from './event-validator.js';

/** A game whose first player has this id: what the event validator says of it. */
const eventAccepts = (id: string): boolean =>
  parseEvent(
    JSON.stringify({
      id: 'e1',
      type: 'game.finished',
      ladder: 'qq-xiangqi',
      gameId: 'g1',
      finishedAt: '2026-11-29T13:05:00+08:00',
      moves: 40,
      players: [
        { id, result: 'win' },
        { id: 'other', result: 'loss' },
      ],
    }),
  ).ok;

describe('isPlayerId', () => {
  it.each([
    ['a plain name', 'alice', true],
    ['CJK characters', '玩家一号', true],
    ['128 characters', 'a'.repeat(128), true],
    ['128 astral characters (256 UTF-16 units)', '😀'.repeat(128), true],
    ['empty', '', false],
    ['129 characters', 'a'.repeat(129), false],
    ['a tab', 'tab\there', false],
    ['a NUL', 'nul\u0000', false],
    ['a C1 control', 'c1\u0085', false],
    ['an unpaired surrogate', 'lone\ud800', false],
  ])(
    'given %s, then it agrees with the event validator',
    (_label, id: string, allowed: boolean) => {
      expect(isPlayerId(id)).toBe(allowed);
      expect(eventAccepts(id)).toBe(allowed);
    },
  );

  it('given a value that is not a string, then false', () => {
    for (const value of [42, null, undefined, ['a'], { id: 'a' }])
      expect(isPlayerId(value)).toBe(false);
  });
});
