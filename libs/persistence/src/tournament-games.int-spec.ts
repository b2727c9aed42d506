import type { LadderEvent } from '@ranking/contracts';
import { generateTournament, TournamentScript } from '@ranking/generator';
import {
  createDataSource,
  EventPayloadText1765400000000,
  EventTournamentColumn1765200000000,
  EventStoreRepository,
  type StoredEvent,
  TournamentGames,
} from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import { checkTournamentConfig, tournamentLadders, tournamentView } from '@ranking/tournament';
import type { DataSource } from 'typeorm';

// The reader against a real, migrated database: one tournament's games and their corrections,
// in log order, out of an event store shared with other ladders, tournaments and games.

const config = checkTournamentConfig({
  id: 'store-cup',
  ladder: 'qq-gomoku',
  groups: [
    { id: 'g1', players: ['a1', 'a2', 'a3', 'a4'] },
    { id: 'g2', players: ['b1', 'b2', 'b3', 'b4'] },
    { id: 'g3', ladder: 'qq-gomoku-swap3', players: ['c1', 'c2', 'c3', 'c4'] },
  ],
  advancement: { perGroup: 2, playoff: { group: 'po', places: 2 } },
});
const other = checkTournamentConfig({
  id: 'other-cup',
  ladder: 'qq-gomoku',
  groups: [{ id: 'g1', players: ['a1', 'a2', 'x3'] }],
});

/** Appends events to the store as the rating service would: per ladder, seq counting up. */
function asStored(events: readonly LadderEvent[]): StoredEvent[] {
  const seqs = new Map<string, number>();
  return events.map((event) => {
    const seq = (seqs.get(event.ladder) ?? 0) + 1;
    seqs.set(event.ladder, seq);
    return { ladder: event.ladder, seq, event };
  });
}

function plainGame(n: number, ladder = 'qq-gomoku'): LadderEvent {
  return {
    id: `plain-${ladder}-${n}`,
    type: 'game.finished',
    ladder,
    gameId: `plain-${n}`,
    finishedAt: '2026-03-21T10:00:00+08:00',
    moves: 30,
    players: [
      { id: 'a1', result: 'win' },
      { id: 'zed', result: 'loss' },
    ],
  };
}

describe('TournamentGames (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let log: LadderEvent[];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'tournament-games');
    await db.initialize();
    const tournament = generateTournament({ seed: 11, config, correctionShare: 0.2 });
    const rival = new TournamentScript(other);
    rival.play('g1', 'a1', 'a2', 'aaa');
    // Interleave the tournament with other traffic: plain games, another tournament, and a
    // correction of a plain game whose id a tournament game reuses later.
    log = [];
    tournament.forEach((event, i) => {
      if (i % 7 === 0) log.push(plainGame(i), plainGame(i, 'qq-gomoku-swap3'));
      if (i === 5) log.push(...rival.events);
      log.push(event);
    });
    log.unshift({
      id: 'early-correction',
      type: 'game.corrected',
      ladder: 'qq-gomoku',
      gameId: (tournament[0] as { gameId: string }).gameId,
      correctedAt: '2026-03-20T10:00:00+08:00',
      void: true,
    });
    await new EventStoreRepository(db).appendEvents(asStored(log));
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('reads exactly the tournament games and their later corrections, in log order', async () => {
    const loaded = await new TournamentGames(db).load(config.id, tournamentLadders(config));
    const expected = asStored(log)
      .filter(({ event }) => {
        if (event.type === 'game.finished') return event.context?.match?.tournament === 'store-cup';
        return event.type === 'game.corrected' && event.id !== 'early-correction';
      })
      .sort((x, y) => (x.ladder < y.ladder ? -1 : x.ladder > y.ladder ? 1 : x.seq - y.seq));
    expect(expected.some(({ event }) => event.type === 'game.corrected')).toBe(true);
    expect(loaded).toEqual(expected);
    // Folded, the stored log gives the same tournament as the log it came from.
    const view = tournamentView(
      config,
      loaded.map((e) => e.event),
    );
    expect(view).toEqual(tournamentView(config, log));
    expect(view.complete).toBe(true);
    expect(view.groups[2]!.ladder).toBe('qq-gomoku-swap3');
  });

  it('reads nothing for a tournament without games, or on other ladders', async () => {
    const reader = new TournamentGames(db);
    expect(await reader.load('no-such-cup', ['qq-gomoku'])).toEqual([]);
    expect(await reader.load('store-cup', ['igame-gomoku'])).toEqual([]);
  });

  it('finds the games through the index the migration adds', async () => {
    await db.query('SET enable_seqscan = off');
    const plan: { 'QUERY PLAN': string }[] = await db.query(
      `EXPLAIN SELECT ladder, seq, payload FROM event_store
       WHERE tournament = 'store-cup' AND ladder = ANY(ARRAY['qq-gomoku'])`,
    );
    await db.query('RESET enable_seqscan');
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('event_store_tournament_games');
  });

  it('given events stored before the tournament column, when migrated, then their games are found', async () => {
    const before = await new TournamentGames(db).load(config.id, tournamentLadders(config));
    const runner = db.createQueryRunner();
    try {
      // Back before the tournament column (the payload was json then) and forward again.
      await new EventPayloadText1765400000000().down(runner);
      await new EventTournamentColumn1765200000000().down(runner);
      await new EventTournamentColumn1765200000000().up(runner);
      await new EventPayloadText1765400000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await new TournamentGames(db).load(config.id, tournamentLadders(config))).toEqual(
      before,
    );
    expect(before.length).toBeGreaterThan(0);
  });
});
