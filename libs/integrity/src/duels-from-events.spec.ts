import type { GameCorrected, GameFinished } from '@ranking/contracts';
import { DuelCollector, gameEventOf } from './duels-from-events.js';

const game = (gameId: string, a: 'win' | 'loss' | 'draw', players = 2): GameFinished => ({
  id: gameId,
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId,
  finishedAt: '2026-03-01T10:00:00+08:00',
  moves: 40,
  players: [
    { id: 'a', result: a, ip: '10.0.0.1' },
    { id: 'b', result: a === 'win' ? 'loss' : a === 'loss' ? 'win' : 'draw' },
    ...(players > 2 ? [{ id: 'c', result: 'loss' as const }] : []),
  ],
});

describe('DuelCollector', () => {
  it('Given games, corrections and games of more players, Then the duels stand as corrected, in log order', () => {
    const collector = new DuelCollector();
    collector.add(game('g1', 'win'));
    collector.add(game('g2', 'draw'));
    collector.add(game('g3', 'win', 3));
    collector.add(game('g1', 'loss'));
    const voided: GameCorrected = {
      id: 'c1',
      type: 'game.corrected',
      ladder: 'igame-gomoku',
      gameId: 'g2',
      correctedAt: '2026-03-02T00:00:00Z',
      void: true,
    };
    const reversed: GameCorrected = {
      ...voided,
      id: 'c2',
      gameId: 'g1',
      void: false,
      players: game('x', 'loss').players,
    };
    collector.add(voided);
    collector.add(reversed);
    collector.add({ ...voided, id: 'c3', gameId: 'never' });
    const duels = collector.byLadder().get('igame-gomoku')!;
    expect(duels.map((d) => [d.gameId, d.sides[0].score, d.sides[0].ip])).toEqual([
      ['g1', 0, '10.0.0.1'],
    ]);
    expect(duels[0]!.at).toBe(Date.parse('2026-03-01T10:00:00+08:00'));
  });
});

describe('gameEventOf', () => {
  const known = (ladder: string) => ladder === 'igame-gomoku';
  it('Given lines, Then only game results and corrections of known ladders come through', () => {
    const good = JSON.stringify(game('g1', 'win'));
    expect(gameEventOf(good, known)).toMatchObject({ gameId: 'g1' });
    for (const line of [
      '{',
      'null',
      '[]',
      JSON.stringify({ ...game('g2', 'win'), ladder: 'qq-xiangqi' }),
      JSON.stringify({ ...game('g3', 'win'), players: 'x' }),
      JSON.stringify({ id: 'p', type: 'period.closed', ladder: 'igame-gomoku', gameId: 'g' }),
      JSON.stringify({ id: 'c', type: 'game.finished', ladder: 'igame-gomoku', gameId: 'g' }),
    ])
      expect(gameEventOf(line, known)).toBeNull();
  });

  it('Given a game whose players are not two distinct reports, Then it is no duel', () => {
    const collector = new DuelCollector();
    collector.add({ ...game('g1', 'win'), players: [null, null] as never });
    collector.add({
      ...game('g2', 'win'),
      players: [
        { id: 'a', result: 'win' },
        { id: 'a', result: 'loss' },
      ],
    });
    expect(collector.byLadder().size).toBe(0);
  });
});
