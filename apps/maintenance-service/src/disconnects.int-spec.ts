import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { GameFinished } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { sqlOf } from '@ranking/persistence';
import {
  type DisconnectCounter,
  ladderRegistry,
  ReplayEngine,
  tallyDisconnects,
} from '@ranking/rating';
import { MaintenanceScenario, ServiceProcess, uniqueName, waitFor } from '@ranking/testing';
import { ManualClock } from './clock.js';
import { handleMaintenanceBatch } from './maintenance-batch.js';
import { MaintenanceServiceModule } from './maintenance-service.module.js';

// A ladder with i.Game's rules that starts near the penalty floor (100).
const LOW = {
  id: 'igame-low',
  ruleSet: 'igame-elo',
  startRating: 120,
  precision: 1,
  timezone: 'Asia/Taipei',
  rankedAfter: 20,
};
// And one whose params make the disconnect rule stricter: 2 disconnects cost 40.
const STRICT = {
  ...LOW,
  id: 'igame-strict',
  params: { disconnectLimit: 2, disconnectPenalty: -40 },
};
const ladders = ladderRegistry([LOW, STRICT]);
const laddersFile = join(tmpdir(), `${uniqueName('ladders')}.json`);
writeFileSync(laddersFile, JSON.stringify([LOW, STRICT]));

let minute = 0;
function game(id: string, player: string, disconnected: boolean, ladder = LOW.id): string {
  minute += 1;
  const finishedAt = new Date(Date.parse('2026-12-01T02:00:00Z') + minute * 60_000).toISOString();
  const event: GameFinished = {
    id,
    type: 'game.finished',
    ladder,
    gameId: id,
    finishedAt: finishedAt.replace('.000Z', 'Z'),
    moves: 40,
    players: [
      { id: player, result: 'win', ip: '10.0.0.1', disconnected },
      { id: `opp-${id}`, result: 'loss', ip: '10.0.0.2', disconnected: false },
    ],
  };
  return JSON.stringify(event);
}

/** Disconnect counters against the real broker and database. */
describe('maintenance service: disconnect counters (real Kafka and PostgreSQL)', () => {
  const scenario = new MaintenanceScenario(ladders);
  const clock = new ManualClock('2026-12-01T00:00:00Z');
  let app: INestApplication | null = null;

  beforeAll(() => scenario.setUp());
  afterAll(async () => {
    await app?.close();
    await scenario.tearDown();
  });

  it('given 5 disconnects, one of them redelivered, then exactly one −100 lands, floored at 100, as in the simulated replay', async () => {
    const rating = new ServiceProcess('dist/apps/rating-service/src/main.js', {
      DATABASE_URL: scenario.databaseUrl,
      KAFKA_TOPIC_PREFIX: scenario.world.prefix,
      RANKING_LADDERS_FILE: laddersFile,
    });
    rating.start();
    try {
      app = await scenario.startInProcess((env) =>
        MaintenanceServiceModule.forRoot(env, ladders, clock),
      );
      const lines = [1, 2, 3, 4, 5].map((i) => game(`a-${i}`, 'alice', true));
      // The second game sent again (a game server's retry): same id, counted once.
      await scenario.world.produce([...lines.slice(0, 2), lines[1]!, ...lines.slice(2)]);
      const penalty = 'player.penalized:igame-low:alice:disconnects:1';
      await waitFor(async () => (await scenario.world.storedEvents()) === 6, {
        timeout: 60_000,
        what: 'the games and the penalty in the event store',
      });
      await waitFor(() => scenario.maintenanceDrained(), { what: 'the maintenance consumer' });
      await waitFor(() => scenario.world.drained(), { what: 'the rating service' });
      expect(scenario.publishedIds('player.penalized')).toEqual([penalty]);
      expect((await scenario.counters(LOW.id)).get('alice')).toEqual({
        count: 0,
        streak: 0,
        penalties: 1,
      });
      const [history] = await scenario.world.db.query(
        'SELECT before, after FROM rating_history WHERE event_id = $1',
        [penalty],
      );
      // 120 after five wins is 193; 193 − 100 would be 93, the floor keeps 100.
      expect(history).toEqual({ before: 193, after: 100 });
      const simulated = new ReplayEngine(ladders, { simulate: true });
      for (const line of lines) simulated.ingestLine(line);
      const [row] = await scenario.world.db.query(
        "SELECT rating, disconnects FROM ladder_players WHERE ladder = 'igame-low' AND player = 'alice'",
      );
      const alice = simulated.ladderFolds.get(LOW.id)!.player('alice');
      expect(row).toEqual({ rating: alice.rating, disconnects: alice.disconnects });
    } finally {
      await rating.stop();
    }
  });

  it('given 4 disconnects then 50 clean games, when one more disconnect comes, then the counter is 1 and nobody is penalized', async () => {
    const lines = [
      ...[1, 2, 3, 4].map((i) => game(`b-d${i}`, 'bob', true)),
      ...Array.from({ length: 50 }, (_, i) => game(`b-c${i}`, 'bob', false)),
      game('b-d5', 'bob', true),
    ];
    await scenario.world.produce(lines);
    await waitFor(async () => (await scenario.counters(LOW.id)).get('bob')?.count === 1, {
      what: "bob's counter",
    });
    await waitFor(() => scenario.maintenanceDrained(), { what: 'the maintenance consumer' });
    expect((await scenario.counters(LOW.id)).get('bob')).toEqual({
      count: 1,
      streak: 0,
      penalties: 0,
    });
    expect(scenario.publishedIds('player.penalized')).toHaveLength(1);
  });

  it('given a batch already applied, when it is delivered again, then nothing changes', async () => {
    const topic = scenario.world.topics.ladderEvents;
    const messages = [1, 2, 3].map((i) => ({
      topic,
      partition: 99,
      offset: String(i),
      key: Buffer.from(LOW.id),
      value: Buffer.from(game(`x-${i}`, 'xena', true)),
    }));
    const run = () =>
      scenario.world.db.transaction((m) =>
        handleMaintenanceBatch(sqlOf(m), ladders, topic, 99, messages),
      );
    const first = await run();
    const counters = await scenario.counters(LOW.id);
    const second = await run();
    expect(first).toMatchObject({ gamesCounted: 3, skipped: 0, nextOffset: 4n });
    expect(second).toMatchObject({ gamesCounted: 0, penalties: 0, skipped: 3, nextOffset: 4n });
    expect(await scenario.counters(LOW.id)).toEqual(counters);
    expect(counters.get('xena')).toEqual({ count: 3, streak: 0, penalties: 0 });
    // Fresh offsets with games counted before (a republished message) count nothing either.
    const moved = messages.map((m, i) => ({ ...m, offset: String(4 + i) }));
    const third = await scenario.world.db.transaction((m) =>
      handleMaintenanceBatch(sqlOf(m), ladders, topic, 99, moved),
    );
    expect(third).toMatchObject({ gamesCounted: 0, skipped: 0 });
    expect(await scenario.counters(LOW.id)).toEqual(counters);
  });

  it('given a ladder whose params set the disconnect rule, when 2 disconnects come, then its −40 penalty is published', async () => {
    await scenario.world.produce([1, 2].map((i) => game(`s-${i}`, 'cleo', true, STRICT.id)));
    await waitFor(() => scenario.publishedIds('player.penalized', STRICT.id).length === 1, {
      what: "cleo's penalty",
    });
    expect(
      scenario.published.filter((e) => e.type === 'player.penalized' && e.ladder === STRICT.id),
    ).toEqual([
      expect.objectContaining({
        id: 'player.penalized:igame-strict:cleo:disconnects:1',
        points: -40,
      }),
    ]);
    expect((await scenario.counters(STRICT.id)).get('cleo')).toEqual({
      count: 0,
      streak: 0,
      penalties: 1,
    });
  });

  it('when the built service is SIGKILLed mid-stream and restarted, then the counters and penalties are those of one uninterrupted pass', async () => {
    await app?.close();
    app = null;
    const lines = [
      ...generateEvents({
        seed: 77,
        events: 4000,
        ladders: [ladders.get('igame-gomoku')!],
        playersPerLadder: 6,
        badShare: 0.03,
        correctionShare: 0.02,
      }),
    ];
    const offline = new ReplayEngine(ladders);
    const expected = new Map<string, DisconnectCounter>();
    const penalties = new Set<string>();
    for (const line of lines) {
      const result = offline.ingestLine(line);
      if (result.kind === 'accepted' && result.event.type === 'game.finished')
        for (const p of tallyDisconnects(ladders.get('igame-gomoku')!, result.event, expected))
          penalties.add(p.id);
    }
    expect(penalties.size).toBeGreaterThan(3);
    const counted = async () =>
      Number(
        (
          await scenario.world.db.query(
            "SELECT count(*) AS n FROM disconnect_games WHERE ladder = 'igame-gomoku'",
          )
        )[0].n,
      );
    await scenario.world.produce(lines.slice(0, 2000));
    const first = scenario.process();
    first.start();
    await waitFor(async () => (await counted()) > 300, {
      timeout: 60_000,
      interval: 10,
      what: 'progress before the kill',
    });
    await first.stop('SIGKILL');
    const killedAt = await counted();
    // The rest of the stream is held back until after the kill, so the kill always lands with
    // work left for the restarted process (it cannot have counted everything already).
    await scenario.world.produce(lines.slice(2000));
    const second = scenario.process();
    second.start();
    try {
      await waitFor(() => scenario.maintenanceDrained(), {
        timeout: 90_000,
        interval: 200,
        what: 'the stream to drain after the restart',
      });
      await waitFor(() => scenario.outboxEmpty(), { what: 'the outbox to empty' });
      expect(killedAt).toBeLessThan(await counted());
      const live = await scenario.counters('igame-gomoku');
      expect(live).toEqual(
        new Map([...expected].filter(([, c]) => c.count + c.streak + c.penalties > 0)),
      );
      await waitFor(
        () =>
          new Set(scenario.publishedIds('player.penalized', 'igame-gomoku')).size ===
          penalties.size,
        { what: 'the penalties on the topic' },
      );
      expect(new Set(scenario.publishedIds('player.penalized', 'igame-gomoku'))).toEqual(penalties);
    } finally {
      await second.stop();
    }
  }, 240_000);
});
