import type { LadderEvent } from '@ranking/contracts';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';

// Issue 7 / RULES.md: tournament games still count on their ladder by that ladder's rules;
// xinbo-points records them only (check 1). The match reference (ADR 0009) changes nothing.

const LADDERS = ladderRegistry();
type Output = { ladders: Record<string, { players: Record<string, Record<string, unknown>> }> };

function standings(events: LadderEvent[]): Output {
  const engine = new ReplayEngine(LADDERS, { simulate: false });
  for (const event of events) engine.ingestLine(JSON.stringify(event));
  engine.finish(null);
  return JSON.parse([...engine.render()].join('')) as Output;
}

function game(
  ladder: string,
  n: number,
  context: Record<string, unknown> | undefined,
  reason = 'five',
): LadderEvent {
  return {
    id: `${ladder}-${n}`,
    type: 'game.finished',
    ladder,
    gameId: `${ladder}-g${n}`,
    finishedAt: `2026-03-21T19:0${n}:00+08:00`,
    moves: 120,
    reason,
    ...(context ? { context } : {}),
    players: [
      { id: 'alice', result: 'win', side: 'black', first: true },
      { id: 'bob', result: 'loss', side: 'white', first: false },
    ],
  };
}

const match = { tournament: 'spring-cup', group: 'g1', match: 'g1-alice-bob' };

describe('tournament games on their ladder', () => {
  it('qq-gomoku: a tournament game is rated like any other (alice +10, bob -10 at equal ratings)', () => {
    const tournament = standings([game('qq-gomoku', 1, { tournament: true, match })]);
    const plain = standings([game('qq-gomoku', 1, undefined)]);
    expect(tournament).toEqual(plain);
    expect(tournament.ladders['qq-gomoku']?.players).toMatchObject({
      alice: { rating: 10, games: 1, wins: 1 },
      bob: { rating: -10, games: 1, losses: 1 },
    });
  });

  it('qq-gomoku: a referee no-show is a game.finished like others, so the ladder rates it too', () => {
    const noShow = standings([game('qq-gomoku', 1, { tournament: true, match }, 'no-show')]);
    expect(noShow.ladders['qq-gomoku']?.players.alice).toMatchObject({ rating: 10, wins: 1 });
  });

  it('igame-gomoku: a tournament game moves Elo ratings as usual', () => {
    const tournament = standings([game('igame-gomoku', 1, { tournament: true, match })]);
    expect(tournament).toEqual(standings([game('igame-gomoku', 1, undefined)]));
    expect(tournament.ladders['igame-gomoku']?.players.alice).toMatchObject({ rating: 1616 });
  });

  it('xinbo-go: a tournament game is recorded only: not even the game count moves', () => {
    const territory = { kind: 'territory', boardSize: 19 };
    const withTournament = standings([
      game('xinbo-go', 1, territory),
      game('xinbo-go', 2, { ...territory, tournament: true, match }),
    ]);
    const without = standings([game('xinbo-go', 1, territory)]);
    expect(withTournament).toEqual(without);
    // The ordinary game counted (W/L/D: capture-stage players, territory game).
    expect(without.ladders['xinbo-go']?.players.alice).toMatchObject({ games: 1, wins: 1 });
  });
});
