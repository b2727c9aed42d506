import { parseEvent, type LadderEvent } from '@ranking/contracts';
import { historyEvent } from './history-event.js';

// A history page shows an event's own instant; it must be the instant the fold placed the event
// at (its first three fraction digits), never one rounded into the next second, day or period.

const game = (finishedAt: string): LadderEvent => {
  const outcome = parseEvent(
    JSON.stringify({
      id: 'e-1',
      type: 'game.finished',
      ladder: 'xinbo-go',
      gameId: 'g-1',
      finishedAt,
      moves: 40,
      players: [
        { id: 'alice', result: 'win' },
        { id: 'bob', result: 'loss' },
      ],
    }),
  );
  if (!outcome.ok) throw new Error(outcome.rejection.detail);
  return outcome.event;
};

describe('historyEvent', () => {
  it.each([
    ['2026-03-08T05:59:59.999999999999999999999+08:00', '2026-03-07T21:59:59.999Z'],
    ['2026-03-07t21:59:59.9999995z', '2026-03-07T21:59:59.999Z'],
    ['2026-03-08T21:58:59.9996+23:59', '2026-03-07T21:59:59.999Z'],
    ['2026-03-08T06:00:00.0000001+08:00', '2026-03-07T22:00:00.000Z'],
  ])('Given a game finished at %s, When its history is shown, Then it is at %s', (at, utc) => {
    expect(historyEvent(game(at)).at).toBe(utc);
  });
});
