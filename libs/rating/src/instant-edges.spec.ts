import { instantMillis, type LadderEvent, parseEvent } from '@ranking/contracts';
import { BOUNDARY_EDGES } from '@ranking/testing';
import { LadderFold } from './ladder-fold.js';
import { ladderRegistry } from './ladder-registry.js';
import { PeriodCalendar } from './period-clock.js';
import { ReplayEngine } from './replay-engine.js';
import { win, loss } from './reports.fixture.js';

// RULES.md "Strings and instants": an instant is RFC 3339's date-time, whose fraction may have
// any number of digits. It is placed by its first three (never rounded up across a second, a
// day or a period boundary), the same in every decision, offline and online.

const LADDERS = ladderRegistry();
let ids = 0;

function parsed(line: Record<string, unknown>): LadderEvent {
  const outcome = parseEvent(JSON.stringify(line));
  if (!outcome.ok) throw new Error(`not a valid event: ${outcome.rejection.detail}`);
  return outcome.event;
}

const igameGame = (player: string, finishedAt: string): LadderEvent =>
  parsed({
    id: `e-${++ids}`,
    type: 'game.finished',
    ladder: 'igame-gomoku',
    gameId: `g-${ids}`,
    finishedAt,
    moves: 40,
    players: [win(player), loss(`opponent-${ids}`)],
  });

const captureGame = (captures: number, finishedAt: string): LadderEvent =>
  parsed({
    id: `e-${++ids}`,
    type: 'game.finished',
    ladder: 'xinbo-go',
    gameId: `g-${ids}`,
    finishedAt,
    moves: 40,
    context: { kind: 'capture', captureTarget: 5 },
    players: [win('alice', { captures }), loss('bob', { captures: 0 })],
  });

describe.each(BOUNDARY_EDGES)('instants next to $what', (edges) => {
  const ladder = LADDERS.get(edges.ladder)!;
  const calendar = PeriodCalendar.of(ladder.timezone);
  const [beforeKey, afterKey] = edges.keys;

  it.each(edges.before.map((at) => [at]))(
    'Given %s, When it is read, Then it is accepted and lies before the boundary',
    (at) => {
      expect(() => igameGame('a', at)).not.toThrow();
      expect(calendar.keyOf(edges.period, instantMillis(at))).toBe(beforeKey);
      // Placed at its first three fraction digits: the last millisecond before the boundary.
      expect(instantMillis(at) % 1000).toBe(999);
    },
  );

  it.each(edges.after.map((at) => [at]))(
    'Given %s, When it is read, Then it is accepted and lies in the next period',
    (at) => {
      expect(() => igameGame('a', at)).not.toThrow();
      expect(calendar.keyOf(edges.period, instantMillis(at))).toBe(afterKey);
      expect(instantMillis(at) % 1000).toBe(0);
    },
  );
});

describe('decisions at the edges', () => {
  const [daily, weekly, monthly] = BOUNDARY_EDGES as [
    (typeof BOUNDARY_EDGES)[number],
    (typeof BOUNDARY_EDGES)[number],
    (typeof BOUNDARY_EDGES)[number],
  ];

  it.each(daily.before.map((at) => [at]))(
    'Given alice credited 8 on day 2026-03-07, When a capture game at %s credits 5, Then only 2 are valid (the same day)',
    (at) => {
      const fold = new LadderFold(LADDERS.get('xinbo-go')!);
      fold.evolve(captureGame(8, '2026-03-07T10:00:00+08:00'));
      fold.evolve(captureGame(5, at));
      expect(fold.player('alice').captures).toBe(10);
    },
  );

  it.each(daily.after.map((at) => [at]))(
    'Given alice credited 8 on day 2026-03-07, When a capture game at %s credits 5, Then all 5 are valid (the next day)',
    (at) => {
      const fold = new LadderFold(LADDERS.get('xinbo-go')!);
      fold.evolve(captureGame(8, '2026-03-07T10:00:00+08:00'));
      fold.evolve(captureGame(5, at));
      expect(fold.player('alice').captures).toBe(13);
    },
  );

  /** Alice's change at the close of the period before the boundary, after six games in it and one at `at`. */
  function weeklyPenalty(at: string): number | undefined {
    const ladder = LADDERS.get('igame-gomoku')!;
    const fold = new LadderFold(ladder);
    for (let day = 3; day <= 8; day++)
      fold.evolve(igameGame('alice', `2026-03-0${day}T12:00:00+08:00`));
    fold.evolve(igameGame('alice', at));
    const outcome = fold.close(PeriodCalendar.of(ladder.timezone).window('weekly', '2026-W10'));
    if (outcome.status !== 'applied') throw new Error('the close was not applied');
    return outcome.changes.find((c) => c.player === 'alice')?.delta;
  }

  it.each(weekly.before.map((at) => [at]))(
    'Given six games of alice in week 2026-W10, When her seventh is at %s, Then the week closes without the −30 quota penalty',
    (at) => expect(weeklyPenalty(at)).toBeUndefined(),
  );

  it.each(weekly.after.map((at) => [at]))(
    'Given six games of alice in week 2026-W10, When her seventh is at %s, Then it is in the next week and she is penalized −30',
    (at) => expect(weeklyPenalty(at)).toBe(-30),
  );

  function monthlyPenalty(at: string): number | undefined {
    const ladder = LADDERS.get('igame-gomoku')!;
    const fold = new LadderFold(ladder);
    fold.evolve(igameGame('alice', '2026-02-10T12:00:00+08:00'));
    fold.evolve(igameGame('alice', at));
    const outcome = fold.close(PeriodCalendar.of(ladder.timezone).window('monthly', '2026-03'));
    if (outcome.status !== 'applied') throw new Error('the close was not applied');
    return outcome.changes.find((c) => c.player === 'alice')?.delta;
  }

  it.each(monthly.before.map((at) => [at]))(
    'Given alice played in February, When her only March game is at %s, Then March closes without the −200 penalty',
    (at) => expect(monthlyPenalty(at)).toBeUndefined(),
  );

  it.each(monthly.after.map((at) => [at]))(
    'Given alice played in February, When her next game is at %s (April), Then March closes with the −200 penalty',
    (at) => expect(monthlyPenalty(at)).toBe(-200),
  );

  it('Given every edge in one file, When it is replayed with simulated closes, Then nothing is rejected and the replay is the fold of its lines', () => {
    const lines: string[] = [];
    let n = 0;
    for (const edges of BOUNDARY_EDGES)
      for (const at of [...edges.before, ...edges.after])
        lines.push(
          JSON.stringify({
            id: `edge-${++n}`,
            type: 'game.finished',
            ladder: edges.ladder,
            gameId: `edge-${n}`,
            finishedAt: at,
            moves: 40,
            ...(edges.ladder === 'xinbo-go'
              ? { context: { kind: 'capture', captureTarget: 5 } }
              : {}),
            players: [
              win(`p${n}`, edges.ladder === 'xinbo-go' ? { captures: 3 } : {}),
              loss(`q${n}`, edges.ladder === 'xinbo-go' ? { captures: 0 } : {}),
            ],
          }),
        );
    const engine = new ReplayEngine(LADDERS, { simulate: true });
    for (const line of lines) engine.ingestLine(line);
    engine.finish(null);
    const out = JSON.parse([...engine.render()].join('')) as { rejected: unknown[] };
    expect(out.rejected).toEqual([]);
  });
});
