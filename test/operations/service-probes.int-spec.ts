import { generateEvents } from '@ranking/generator';
import { PROBE_PATHS } from '@ranking/operations';
import { ladderRegistry } from '@ranking/rating';
import {
  probe,
  readTopics,
  sample,
  sampleSum,
  ServiceProcess,
  topicEnds,
  waitFor,
} from '@ranking/testing';
import { LeaderboardWorld } from '../leaderboard/leaderboard-world.js';

const ladders = ladderRegistry();
// Ten days of November: every daily close of those days is due, so the maintenance service
// decides closes at once, and the rating service folds them.
const lines = [
  ...generateEvents({
    seed: 15,
    events: 1500,
    badShare: 0.05,
    correctionShare: 0.02,
    days: 10,
    start: '2026-11-01T00:00:00+08:00',
  }),
];

/** Every line of a service's standard output is one JSON log object with these fields. */
function expectJsonLogs(service: ServiceProcess): Record<string, unknown>[] {
  const lines = service.stdout.split('\n').filter((l) => l !== '');
  expect(lines.length).toBeGreaterThan(0);
  const entries = lines.map((line) => {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON log line: ${line}`);
    }
    expect(entry).toMatchObject({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: expect.stringMatching(/^(fatal|error|warn|info|debug|trace)$/),
      context: expect.any(String),
    });
    expect(entry).toHaveProperty('message');
    return entry;
  });
  return entries;
}

/**
 * Runs the expectations until they hold together: a daily close can fall due while a test runs
 * (06:00 in a ladder's zone), and then the counts move on for a moment.
 */
const consistently = (what: string, expectations: () => Promise<void>) =>
  waitFor(
    async () => {
      await expectations();
      return true;
    },
    { timeout: 20_000, interval: 500, what },
  );

/**
 * The three services as an operator runs them, against the real Kafka, PostgreSQL and Redis:
 * each answers its probes and metrics on its own port, logs JSON lines, binds HOST, and stops
 * cleanly on SIGTERM.
 */
describe('operable services (real Kafka, PostgreSQL and Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  let rating: ServiceProcess;
  let maintenance: ServiceProcess;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    maintenance = new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
      DATABASE_URL: world.databaseUrl,
      KAFKA_TOPIC_PREFIX: world.prefix,
      MAINTENANCE_GRACE_SECONDS: '0',
      HOST: '127.0.0.2',
    });
    rating.start();
    maintenance.start();
    await world.produce(lines);
    await world.startLeaderboard();
    urls.rating = await rating.url();
    urls.maintenance = await maintenance.url();
    urls.leaderboard = `http://127.0.0.1:${world.port}`;
    // Everything on the ladder-events topic (the produced lines, then the maintenance
    // decisions) is folded, and the boards have every rating change.
    await waitFor(
      async () => {
        const ends = [...(await topicEnds(world.kafka, world.topics.ladderEvents)).values()];
        const total = ends.reduce((a, b) => a + b, 0);
        const counted = sampleSum(
          (await probe(`${urls.rating}/metrics`)).text,
          'ranking_events_total',
        );
        return (
          total > lines.length &&
          counted === total &&
          (await world.drained()) &&
          (await world.caughtUp())
        );
      },
      { timeout: 90_000, interval: 500, what: 'every service to catch up' },
    );
  }, 150_000);

  afterAll(async () => {
    await world.tearDownAll(rating, maintenance);
  });

  it('then each answers live, ready and the older /health with its checks named', async () => {
    const checks = {
      rating: ['shutdown', 'postgres', 'kafka', 'consumer'],
      maintenance: ['shutdown', 'postgres', 'kafka', 'consumer'],
      leaderboard: ['shutdown', 'postgres', 'redis', 'kafka', 'consumer'],
    };
    for (const [service, names] of Object.entries(checks)) {
      const base = urls[service]!;
      const live = await probe(`${base}${PROBE_PATHS.live}`);
      expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(Object.keys(live.body.details)).toEqual(['consumer']);
      // The lag is measured every 5 s: the next measurement shows the consumer caught up.
      const ready = await waitFor(
        async () => {
          const answer = await probe(`${base}${PROBE_PATHS.ready}`);
          return answer.status === 200 && answer.body.details.consumer.lag === 0
            ? answer
            : undefined;
        },
        { timeout: 20_000, what: `${service} to be ready and caught up` },
      );
      expect(Object.keys(ready.body.details)).toEqual(names);
      expect(ready.body.details.consumer).toMatchObject({ status: 'up', lag: 0 });
      const health = await probe(`${base}${PROBE_PATHS.health}`);
      expect(health.status).toBe(200);
      expect(Object.keys(health.body.details)).toEqual(names);
    }
  });

  it('then the rating service counts every message once by outcome, as its tables hold them', async () => {
    await consistently('the rating counts to match its tables', async () => {
      const lagOf = (metrics: string, partition: number) =>
        sample(metrics, 'ranking_consumer_lag_messages', {
          topic: world.topics.ladderEvents,
          partition: String(partition),
        });
      // The lag is measured on a timer: every partition shows, each at zero once measured again.
      const metrics = await waitFor(
        async () => {
          const text = (await probe(`${urls.rating}/metrics`)).text;
          return Array.from({ length: 12 }, (_, p) => lagOf(text, p)).every((l) => l === 0)
            ? text
            : undefined;
        },
        { timeout: 20_000, what: 'a lag of zero on every partition' },
      );
      const [stored] = await world.db.query('SELECT count(*)::int AS n FROM event_store');
      const [voided] = await world.db.query('SELECT count(*)::int AS n FROM void_games');
      const rejected: { reason: string; n: number }[] = await world.db.query(
        "SELECT reason, count(*)::int AS n FROM rejected_messages WHERE consumer = 'rating-service' GROUP BY reason",
      );
      expect(rejected.length).toBeGreaterThan(1);
      expect(voided.n).toBeGreaterThan(0);
      expect(sample(metrics, 'ranking_events_total', { outcome: 'applied', reason: '' })).toBe(
        stored.n - voided.n,
      );
      expect(sample(metrics, 'ranking_events_total', { outcome: 'void', reason: '' })).toBe(
        voided.n,
      );
      for (const { reason, n } of rejected)
        expect(sample(metrics, 'ranking_events_total', { outcome: 'rejected', reason })).toBe(n);
      expect(
        sample(metrics, 'ranking_events_total', { outcome: 'unprocessable', reason: '' }),
      ).toBe(undefined);
      expect(sample(metrics, 'ranking_outbox_pending_messages')).toBe(0);
      expect(sample(metrics, 'ranking_batch_duration_seconds_count')).toBeGreaterThan(0);
      expect(sample(metrics, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(metrics).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    });
  });

  it('then the maintenance service counts the closes and penalties it decided, as published', async () => {
    await consistently('the maintenance counts to match the topic', async () => {
      const topic = world.topics.ladderEvents;
      const published = [...(await readTopics(world.kafka, [topic])).get(topic)!.values()]
        .flat()
        .map((m) => {
          try {
            return (JSON.parse(m.value?.toString() ?? '') as { type?: string }).type;
          } catch {
            return undefined;
          }
        });
      const closes = published.filter((t) => t === 'period.closed').length;
      const penalties = published.filter((t) => t === 'player.penalized').length;
      expect(closes).toBeGreaterThan(0);
      const metrics = (await probe(`${urls.maintenance}/metrics`)).text;
      expect(sampleSum(metrics, 'ranking_period_closes_total')).toBe(closes);
      expect(sampleSum(metrics, 'ranking_penalties_total')).toBe(penalties);
      expect(metrics).toMatch(/^# TYPE ranking_penalties_total counter$/m);
      expect(
        sample(metrics, 'ranking_period_closes_total', { ladder: 'qq-gomoku', period: 'daily' }),
      ).toBeGreaterThan(0);
      expect(sample(metrics, 'ranking_outbox_pending_messages')).toBe(0);
      expect(sampleSum(metrics, 'ranking_events_total')).toBe(published.length);
    });
  });

  it('then the leaderboard counts board builds, rating changes and its own requests', async () => {
    await probe(`${urls.leaderboard}/v1/ladders`);
    await probe(`${urls.leaderboard}${PROBE_PATHS.ready}`);
    await consistently('the leaderboard counts to match', async () => {
      const metrics = (await probe(`${urls.leaderboard}/metrics`)).text;
      expect(sampleSum(metrics, 'ranking_board_build_duration_seconds_count')).toBeGreaterThan(0);
      const changes = [
        ...(await topicEnds(world.kafka, world.topics.ratingChanges)).values(),
      ].reduce((a, b) => a + b, 0);
      expect(sample(metrics, 'ranking_events_total', { outcome: 'applied', reason: '' })).toBe(
        changes,
      );
      expect(
        sample(metrics, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: '/v1/ladders',
          status_code: '200',
        }),
      ).toBe(1);
      expect(
        sample(metrics, 'http_request_duration_seconds_count', {
          method: 'GET',
          route: '/health/ready',
          status_code: '200',
        }),
      ).toBeGreaterThan(0);
    });
  });

  it('then each logs one JSON object a line, kafkajs included', () => {
    for (const service of [rating, maintenance, world.leaderboard]) {
      const entries = expectJsonLogs(service);
      expect(entries.some((e) => e.context === 'kafkajs')).toBe(true);
      expect(entries.some((e) => String(e.message).startsWith('listening on'))).toBe(true);
    }
  });

  it('then HOST decides the address it listens on', async () => {
    expect(urls.maintenance).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect((await probe(`${urls.maintenance}${PROBE_PATHS.live}`)).status).toBe(200);
    const port = new URL(urls.maintenance!).port;
    await expect(fetch(`http://127.0.0.1:${port}${PROBE_PATHS.live}`)).rejects.toThrow();
  });

  it('when each gets SIGTERM, then it exits 0 within 10 s, saying so', async () => {
    for (const service of [maintenance, world.leaderboard, rating]) {
      const end = await service.stop('SIGTERM');
      expect(end).toMatchObject({ code: 0, signal: null });
      expect(end!.ms).toBeLessThan(10_000);
      expect(service.logLines.some((e) => e.message === 'SIGTERM: shutting down')).toBe(true);
    }
  });
});
