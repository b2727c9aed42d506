import type { LadderEvent } from '@ranking/contracts';
import { LadderFold } from './ladder-fold.js';
import { BUILT_IN_LADDERS } from './ladder-config.js';
import { skillMovers } from './skill-movers.js';
import { loss, win } from './reports.fixture.js';

const ladder = BUILT_IN_LADDERS.find((l) => l.id === 'qq-xiangqi')!;
const head = { ladder: ladder.id };
const game = (id: string, a: string, b: string, at: string): LadderEvent => ({
  ...head,
  id,
  type: 'game.finished',
  gameId: id,
  finishedAt: at,
  moves: 40,
  players: [win(a, { first: true }), loss(b, { first: false })],
});

describe('skillMovers', () => {
  it('given each kind of event, then the players whose estimate it may move', () => {
    expect(skillMovers(game('g1', 'a', 'b', '2026-11-29T10:00:00Z'))).toEqual(['a', 'b']);
    expect(
      skillMovers({
        ...head,
        id: 'c1',
        type: 'game.corrected',
        gameId: 'g1',
        correctedAt: '2026-11-29T11:00:00Z',
        players: [loss('a'), win('b')],
      }),
    ).toEqual(['a', 'b']);
    expect(
      skillMovers({
        ...head,
        id: 'c2',
        type: 'game.corrected',
        gameId: 'g1',
        correctedAt: '2026-11-29T11:00:00Z',
        void: true,
      }),
    ).toBe('ladder');
    expect(
      skillMovers({
        ...head,
        id: 'x',
        type: 'player.annulled',
        player: 'a',
        since: '2026-11-01T00:00:00Z',
        annulledAt: '2026-11-30T00:00:00Z',
      }),
    ).toBe('ladder');
    expect(
      skillMovers({
        ...head,
        id: 'p',
        type: 'player.penalized',
        player: 'a',
        points: -100,
        reason: 'disconnects',
        at: '2026-11-29T12:00:00Z',
      }),
    ).toEqual([]);
  });

  it('given a fold with the estimate, then every player whose estimate an event moved is among its movers', () => {
    const fold = new LadderFold(ladder, { skill: true });
    const events: LadderEvent[] = [
      game('g1', 'a', 'b', '2026-11-29T10:00:00Z'),
      game('g2', 'b', 'c', '2026-11-29T10:05:00Z'),
      {
        ...head,
        id: 'c1',
        type: 'game.corrected',
        gameId: 'g1',
        correctedAt: '2026-11-29T11:00:00Z',
        players: [loss('a'), win('b')],
      },
      {
        ...head,
        id: 'p1',
        type: 'player.penalized',
        player: 'c',
        points: -100,
        reason: 'disconnects',
        at: '2026-11-29T12:00:00Z',
      },
    ];
    let moved = 0;
    for (const event of events) {
      const before = new Map([...fold.skill!.players].map(([id, s]) => [id, { ...s }]));
      expect(fold.evolve(event).status).toBe('applied');
      const movers = skillMovers(event);
      for (const [id, now] of fold.skill!.players) {
        const was = before.get(id);
        if (was && was.mu === now.mu && was.sigma === now.sigma) continue;
        moved++;
        expect({
          event: event.id,
          moved: id,
          listed: movers === 'ladder' || movers.includes(id),
        }).toEqual({ event: event.id, moved: id, listed: true });
      }
    }
    // Two games of two and a correction of two.
    expect(moved).toBe(6);
  });
});
