import type { LadderEvent } from '@ranking/contracts';
import { ladderRegistry, MaintenanceLedger } from '@ranking/rating';

const LADDERS = ladderRegistry();

const game = (id: string, finishedAt: string, disconnected: boolean): LadderEvent => ({
  id,
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId: id,
  finishedAt,
  moves: 40,
  players: [
    { id: 'a', result: 'loss', ip: '1.1.1.1', disconnected },
    { id: 'b', result: 'win', ip: '2.2.2.2' },
  ],
});

describe('maintenance ledger (the maintenance state from the event store)', () => {
  it('given stored games and closes, then the counters, the penalty and the clock after the last close follow', () => {
    const ledger = new MaintenanceLedger(LADDERS);
    for (let i = 1; i <= 5; i++) ledger.add(game(`g${i}`, `2026-12-0${i}T10:00:00+08:00`, true));
    ledger.add({
      id: 'period.closed:igame-gomoku:daily:2026-12-04',
      type: 'period.closed',
      ladder: 'igame-gomoku',
      period: 'daily',
      key: '2026-12-04',
      start: '2026-12-04T06:00:00+08:00',
      end: '2026-12-05T06:00:00+08:00',
    });
    expect(ledger.counters.get('igame-gomoku')?.get('a')).toEqual({
      count: 0,
      streak: 0,
      penalties: 1,
    });
    expect(ledger.counted).toHaveLength(5);
    expect(ledger.penalties.map((p) => p.id)).toEqual([
      'player.penalized:igame-gomoku:a:disconnects:1',
    ]);
    expect(
      ledger
        .openWindows()
        .get('igame-gomoku')
        ?.map((w) => `${w.period}:${w.key}`),
    ).toEqual(['weekly:2026-W49', 'monthly:2026-12', 'daily:2026-12-05']);
  });

  it('given no event of a ladder, then it has no clock', () => {
    expect(new MaintenanceLedger(LADDERS).openWindows().size).toBe(0);
  });
});
