/**
 * A game server's game.finished of igame-gomoku (alice beats bob, different addresses), as
 * the tests of the ways in send it; `over` replaces fields.
 */
/** A penalty as only the system may send it (a game server's is `not-permitted`). */
export const penaltyEvent = (id: string): Record<string, unknown> => ({
  id,
  type: 'player.penalized',
  ladder: 'igame-gomoku',
  player: 'bob',
  points: -100,
  reason: 'disconnects',
  at: '2026-12-01T10:00:00+08:00',
});

export function gameResult(
  id: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    type: 'game.finished',
    ladder: 'igame-gomoku',
    gameId: `g-${id}`,
    finishedAt: '2026-12-01T10:00:00+08:00',
    moves: 41,
    reason: 'five',
    players: [
      { id: 'alice', result: 'win', side: 'black', first: true, ip: '203.0.113.7' },
      { id: 'bob', result: 'loss', side: 'white', first: false, ip: '198.51.100.2' },
    ],
    ...over,
  };
}
