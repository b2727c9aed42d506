import type { GameFinished } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import {
  type DisconnectCounter,
  disconnectReports,
  ladderRegistry,
  ReplayEngine,
  tallyDisconnects,
} from '@ranking/rating';

const LADDERS = ladderRegistry();
const igame = LADDERS.get('igame-gomoku')!;

const game = (
  id: string,
  aDisconnected: boolean,
  extra: Partial<GameFinished> = {},
): GameFinished => ({
  id,
  type: 'game.finished',
  ladder: 'igame-gomoku',
  gameId: id,
  finishedAt: '2026-12-01T10:00:00+08:00',
  moves: 40,
  reason: 'five',
  players: [
    { id: 'a', result: 'loss', ip: '1.1.1.1', disconnected: aDisconnected },
    { id: 'b', result: 'win', ip: '2.2.2.2', disconnected: false },
  ],
  ...extra,
});

describe('disconnect tally (what the maintenance service counts)', () => {
  it('given 5 disconnects, then the fifth triggers penalty 1 with the deterministic id and the game time', () => {
    const counters = new Map<string, DisconnectCounter>();
    const penalties = [1, 2, 3, 4, 5].flatMap((i) =>
      tallyDisconnects(igame, game(`g${i}`, true), counters),
    );
    expect(penalties).toEqual([
      {
        id: 'player.penalized:igame-gomoku:a:disconnects:1',
        type: 'player.penalized',
        ladder: 'igame-gomoku',
        player: 'a',
        points: -100,
        reason: 'disconnects',
        at: '2026-12-01T10:00:00+08:00',
      },
    ]);
    expect(counters.get('a')).toEqual({ count: 0, streak: 0, penalties: 1 });
  });

  it('given a same-ip game, a rejected game or another rule set, then no counter moves', () => {
    const sameIp = game('s', true, {
      players: [
        { id: 'a', result: 'loss', ip: '1.1.1.1', disconnected: true },
        { id: 'b', result: 'win', ip: '1.1.1.1', disconnected: false },
      ],
    });
    const inconsistent = game('i', true, {
      players: [
        { id: 'a', result: 'win', disconnected: true },
        { id: 'b', result: 'win', disconnected: false },
      ],
    });
    expect(disconnectReports(igame, sameIp)).toEqual([]);
    expect(disconnectReports(igame, inconsistent)).toEqual([]);
    expect(
      disconnectReports(LADDERS.get('qq-gomoku')!, { ...game('q', true), ladder: 'qq-gomoku' }),
    ).toEqual([]);
  });

  it('given a generated i.Game stream, then the counters and penalties equal the fold under --simulate', () => {
    const lines = [
      ...generateEvents({
        seed: 23,
        events: 2000,
        ladders: [igame],
        playersPerLadder: 6,
        badShare: 0.03,
        correctionShare: 0.02,
      }),
    ];
    const engine = new ReplayEngine(LADDERS, { simulate: true });
    const counters = new Map<string, DisconnectCounter>();
    const penalties: string[] = [];
    for (const line of lines) {
      const result = engine.ingestLine(line);
      if (result.kind === 'accepted' && result.event.type === 'game.finished')
        penalties.push(...tallyDisconnects(igame, result.event, counters).map((p) => p.id));
    }
    const fold = engine.ladderFolds.get('igame-gomoku')!;
    const simulated = engine.snapshot().seen.filter((id) => id.startsWith('player.penalized:'));
    expect(penalties.length).toBeGreaterThan(2);
    expect(penalties.sort()).toEqual(simulated.sort());
    for (const [id, c] of counters) {
      const p = fold.player(id);
      expect([p.disconnects, p.cleanStreak, p.disconnectPenalties]).toEqual([
        c.count,
        c.streak,
        c.penalties,
      ]);
    }
  });
});
