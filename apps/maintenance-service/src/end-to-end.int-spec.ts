import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import type { GameFinished } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { MaintenanceScenario, uniqueName, waitFor } from '@ranking/testing';
import type { Producer } from 'kafkajs';
import { ManualClock } from './clock.js';
import { MaintenanceServiceModule } from './maintenance-service.module.js';
import { PeriodTicker } from './period-ticker.js';

const run = promisify(execFile);
const ladders = ladderRegistry();
const igame = ladders.get('igame-gomoku')!;
const GRACE_MS = 120_000;
const UNTIL = '2027-01-01T07:00:00+08:00';

/**
 * The whole loop: game servers publish a month of i.Game games, two maintenance instances
 * share one clock that follows the games, the rating service folds everything. Games are
 * paced so each one is published after the closes due before it and before the next game
 * the penalty it triggers: the order `ranking replay --simulate` assumes.
 */
describe('maintenance and rating services end to end (real Kafka and PostgreSQL)', () => {
  const scenario = new MaintenanceScenario(ladders);
  const clock = new ManualClock('2026-12-01T00:00:00+08:00');
  const instances: INestApplication[] = [];
  let producer: Producer;

  beforeAll(async () => {
    await scenario.setUp();
    producer = scenario.world.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });
  afterAll(async () => {
    await producer.disconnect();
    for (const app of instances) await app.close();
    await scenario.tearDown();
  });

  const cli = async (...args: string[]) =>
    run(process.execPath, ['bin/ranking.js', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: scenario.databaseUrl,
        KAFKA_TOPIC_PREFIX: scenario.world.prefix,
      },
    });
  const tickers = () => instances.map((app) => app.get(PeriodTicker));

  /** Both instances tick at once at `at`; returns when what they decided is on the topic. */
  async function tickAt(at: number): Promise<void> {
    clock.set(at);
    await Promise.all(tickers().map((t) => t.tick()));
    await waitFor(() => scenario.outboxEmpty(), { interval: 5, what: 'the outbox to empty' });
  }

  async function maintenanceAt(partition: number, offset: number): Promise<boolean> {
    const rows: { next_offset: string }[] = await scenario.world.db.query(
      "SELECT next_offset FROM consumer_offsets WHERE consumer = 'maintenance-service' AND topic = $1 AND partition = $2",
      [scenario.world.topics.ladderEvents, partition],
    );
    return rows.length > 0 && Number(rows[0]!.next_offset) > offset;
  }

  it('given a month of i.Game games and two maintenance instances on one clock, then the live state equals `ranking replay` of the log and `ranking replay --simulate` of the games, each close applied once', async () => {
    const games = [
      ...generateEvents({
        seed: 2026,
        events: 500,
        ladders: [igame],
        start: '2026-12-01T07:00:00+08:00',
        days: 30,
        playersPerLadder: 5,
        badShare: 0,
        correctionShare: 0,
        closes: false,
      }),
    ];
    const instants = games.map((l) => Date.parse((JSON.parse(l) as GameFinished).finishedAt));
    expect(instants).toEqual([...instants].sort((a, b) => a - b));

    const rating = scenario.world.service();
    rating.start();
    try {
      for (let i = 0; i < 2; i++)
        instances.push(
          await scenario.startInProcess((env) =>
            MaintenanceServiceModule.forRoot(env, ladders, clock),
          ),
        );
      for (let i = 0; i < games.length; i++) {
        // The clock stands at the game's time plus the grace: the closes before it are due.
        await tickAt(instants[i]! + GRACE_MS);
        const [sent] = await producer.send({
          topic: scenario.world.topics.ladderEvents,
          messages: [{ key: igame.id, value: games[i]! }],
        });
        await waitFor(() => maintenanceAt(sent!.partition, Number(sent!.baseOffset)), {
          interval: 5,
          what: `the maintenance service to read game ${i}`,
        });
        await waitFor(() => scenario.outboxEmpty(), { interval: 5, what: 'its penalties' });
      }
      await tickAt(Date.parse(UNTIL) + GRACE_MS);
      await waitFor(() => scenario.world.drained(), {
        timeout: 60_000,
        interval: 100,
        what: 'the rating service',
      });

      const dir = join(tmpdir(), uniqueName('e2e'));
      const [gamesFile, log, live, fromLog, simulated] = [
        'games.ndjson',
        'log.ndjson',
        'live.json',
        'replay.json',
        'simulate.json',
      ].map((f) => `${dir}-${f}`);
      await writeFile(gamesFile!, games.join('\n') + '\n');
      await cli('export', '--log', log!, '--standings', live!);
      await cli('replay', '--events', log!, '--out', fromLog!);
      await cli(
        'replay',
        '--events',
        gamesFile!,
        '--simulate',
        '--until',
        UNTIL,
        '--out',
        simulated!,
      );
      const read = async (f: string) =>
        JSON.parse(await readFile(f, 'utf8')) as { ladders: unknown };
      const state = (await read(live!)).ladders;
      expect(state).toEqual((await read(fromLog!)).ladders);
      expect(state).toEqual((await read(simulated!)).ladders);

      // Each close and penalty is in the event store once, and the ladder closed each period once.
      const stored: { type: string; n: string }[] = await scenario.world.db.query(
        'SELECT type, count(*) AS n FROM event_store GROUP BY type ORDER BY type',
      );
      const closes = new Set(scenario.publishedIds('period.closed'));
      const penalties = new Set(scenario.publishedIds('player.penalized'));
      expect(penalties.size).toBeGreaterThan(0);
      expect(closes.size).toBe(31 + 4 + 1); // 1–31 December, weeks 49–52, December
      expect(stored).toEqual([
        { type: 'game.finished', n: String(games.length) },
        { type: 'period.closed', n: String(closes.size) },
        { type: 'player.penalized', n: String(penalties.size) },
      ]);
      const [periods] = await scenario.world.db.query(
        'SELECT count(*) AS n, count(DISTINCT (period, period_key)) AS distinct FROM ladder_periods',
      );
      expect(periods).toEqual({ n: String(closes.size), distinct: String(closes.size) });

      // A repeat of every decision (say, an instance that missed the others' work) changes nothing.
      const repeated = scenario.published.filter((e) => e.type !== 'game.finished');
      await producer.send({
        topic: scenario.world.topics.ladderEvents,
        messages: repeated.map((e) => ({ key: e.ladder, value: JSON.stringify(e) })),
      });
      await waitFor(() => scenario.world.drained(), { timeout: 60_000, what: 'the repeats' });
      await cli('export', '--standings', live!);
      expect((await read(live!)).ladders).toEqual(state);

      // `ranking rebuild-counters` re-derives the maintenance state from the event store.
      await waitFor(() => scenario.maintenanceDrained(), { what: 'the maintenance consumers' });
      for (const app of instances.splice(0)) await app.close();
      const maintenanceState = async () => ({
        counters: await scenario.world.db.query(
          'SELECT * FROM disconnect_counters ORDER BY ladder, player',
        ),
        counted: await scenario.world.db.query('SELECT count(*) AS n FROM disconnect_games'),
        clocks: await scenario.world.db.query(
          'SELECT * FROM maintenance_clocks ORDER BY ladder, period',
        ),
        offsets: await scenario.world.db.query(
          "SELECT partition, next_offset FROM consumer_offsets WHERE consumer = 'maintenance-service' ORDER BY partition",
        ),
      });
      const before = await maintenanceState();
      expect(before.counters.length).toBe(5);
      await scenario.world.db.query(
        "TRUNCATE disconnect_counters, disconnect_games, maintenance_clocks; DELETE FROM consumer_offsets WHERE consumer = 'maintenance-service'",
      );
      await cli('rebuild-counters');
      expect(await maintenanceState()).toEqual(before);
      expect(await scenario.outboxEmpty()).toBe(true);
    } finally {
      await rating.stop();
    }
  }, 600_000);
});
