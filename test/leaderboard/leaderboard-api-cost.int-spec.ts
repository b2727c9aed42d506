/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import { Agent, request as httpRequest } from 'node:http';
import { generateEvents } from '@ranking/generator';
import { PROBE_PATHS } from '@ranking/operations';
import { ladderRegistry } from '@ranking/rating';
import { probe, sample, ServiceProcess, waitFor } from '@ranking/testing';
import pg from 'pg';
import { LeaderboardWorld } from './leaderboard-world.js';

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

const ladders = ladderRegistry();
const LADDER = 'qq-gomoku';
const ROUNDS = 8;
const lines = [...generateEvents({ seed: 28, events: 1600, days: 2, playersPerLadder: 30 })];
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * The leaderboard API bounding its own cost, against the built service and the real
 * PostgreSQL, Kafka and Redis (issue 28, item 4): boards as of an instant built a bounded number
 * at a time and the rest queued or refused, repeated instants answered from memory, API queries
 * cancelled past their statement timeout, readiness computed at most once a second however
 * many probe it, and one rate limit for every replica on one Redis, by client as TRUST_PROXY
 * and IPv6 /64s say. Only to 127.0.0.1; every wait is on an observed state, never a duration.
 */
describe('leaderboard API cost bounds', () => {
  const world = new LeaderboardWorld(ladders);
  let rating: ServiceProcess;
  let second: ServiceProcess | null = null;
  /** Instants of the ladder's history, each with a cut (last row by then) of its own. */
  let instants: string[];

  const call = (
    path: string,
    options: { from?: string; base?: number; headers?: Record<string, string> } = {},
  ): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: options.base ?? world.port,
          path,
          localAddress: options.from ?? '127.0.0.1',
          agent,
          headers: options.headers,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });

  const metrics = async (port = world.port) =>
    (await probe(`http://127.0.0.1:${port}${PROBE_PATHS.metrics}`)).text;
  const metric = async (name: string, labels: Record<string, string> = {}) =>
    sample(await metrics(), name, labels) ?? 0;
  const boardAt = (at: string) =>
    `/ladders/${LADDER}/leaderboard?view=live&limit=5&at=${encodeURIComponent(at)}`;

  /** The API pool's statements now: what they wait for and their text. */
  const apiStatements = async (): Promise<{ wait: string | null; query: string }[]> =>
    world.db.query(
      `SELECT wait_event_type AS wait, query FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'leaderboard-service-api'
         AND state = 'active'`,
    );

  /**
   * Holds ladder_players in an exclusive lock: a board's standings query (which reads it) waits
   * until `release`, while the instant's cut (rating_history only) and the boards in memory
   * are still answered.
   */
  const holdPlayers = async () => {
    const client = new pg.Client({ connectionString: world.databaseUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE ladder_players IN ACCESS EXCLUSIVE MODE');
    return async () => {
      await client.query('COMMIT');
      await client.end();
    };
  };

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard({
      POINT_IN_TIME_BUILDS: '1',
      POINT_IN_TIME_QUEUE: '2',
      // The builds held by the test's lock must not time out meanwhile.
      API_STATEMENT_TIMEOUT_MS: '120000',
    });
    // Rounds produced one after another: the history gets instants in distinct transactions.
    const size = Math.ceil(lines.length / ROUNDS);
    for (let i = 0; i < lines.length; i += size) {
      await world.produce(lines.slice(i, i + size));
      await waitFor(() => world.drained(), { timeout: 60_000, interval: 100, what: 'a round' });
    }
    const rows: { at: Date }[] = await world.db.query(
      'SELECT DISTINCT at FROM rating_history WHERE ladder = $1 ORDER BY at',
      [LADDER],
    );
    // Each instant rounded up to the millisecond the API reads; kept when its cut is new.
    const cuts = new Set<string>();
    instants = [];
    for (const { at } of rows) {
      const instant = new Date(Math.ceil(at.getTime() + 1)).toISOString();
      const [cut] = await world.db.query(
        `SELECT id FROM rating_history WHERE ladder = $1 AND at <= $2
         ORDER BY at DESC, id DESC LIMIT 1`,
        [LADDER, instant],
      );
      if (!cuts.has(cut.id)) instants.push(instant);
      cuts.add(cut.id);
    }
    expect(instants.length).toBeGreaterThanOrEqual(7);
  }, 240_000);

  afterAll(async () => {
    agent.destroy();
    await world.tearDownAll(second, rating);
  });

  it('given more distinct instants at once than build slots and queue places, then one board is built at a time, two wait and are served, the rest are 503 with Retry-After; a repeated instant is answered from memory meanwhile', async () => {
    // One instant built before: asked again, it is a hit.
    const cached = instants[0]!;
    expect((await call(boardAt(cached))).status).toBe(200);
    const hits = await metric('leaderboard_point_in_time_boards_total', { result: 'hit' });
    const again = await call(boardAt(cached));
    expect(again.status).toBe(200);
    expect(await metric('leaderboard_point_in_time_boards_total', { result: 'hit' })).toBe(
      hits + 1,
    );
    const misses = await metric('leaderboard_point_in_time_boards_total', { result: 'miss' });

    const release = await holdPlayers();
    let pending: Promise<Reply>[] = [];
    try {
      const asked = instants.slice(1, 7);
      const answered: Reply[] = [];
      pending = asked.map((at) =>
        call(boardAt(at)).then((reply) => {
          answered.push(reply);
          return reply;
        }),
      );
      // One build runs (its query waits on the lock), two wait for the slot, three are refused.
      await waitFor(
        async () =>
          answered.length === 3 &&
          (await metric('leaderboard_point_in_time_builds', { state: 'running' })) === 1 &&
          (await metric('leaderboard_point_in_time_builds', { state: 'queued' })) === 2,
        { timeout: 30_000, what: 'one build running, two queued, three refused' },
      );
      for (const refused of answered) {
        expect(refused.status).toBe(503);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.body.detail).toMatch(/boards as of an instant are being built/);
      }
      expect(await metric('leaderboard_point_in_time_refused_total')).toBe(3);
      // PostgreSQL sees exactly one standings query of the API, waiting for the lock.
      const running = (await apiStatements()).filter((s) => /CROSS JOIN LATERAL/.test(s.query));
      expect(running.map((s) => s.wait)).toEqual(['Lock']);
      // The board in memory is still answered while the builds wait.
      expect((await call(boardAt(cached))).status).toBe(200);
    } finally {
      await release();
    }
    const replies = await Promise.all(pending);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 503, 503, 503]);
    for (const served of replies.filter((r) => r.status === 200))
      expect(served.body).toMatchObject({ ladder: LADDER, live: false });
    expect(await metric('leaderboard_point_in_time_boards_total', { result: 'miss' })).toBe(
      misses + 6,
    );
    expect(await metric('leaderboard_point_in_time_builds', { state: 'running' })).toBe(0);
    expect(await metric('leaderboard_point_in_time_builds', { state: 'queued' })).toBe(0);
  });

  it('given 50 probes at once, then readiness is computed once a second at most and shared: one Kafka admin connection, not fifty', async () => {
    const before = await metric('ranking_readiness_checks_total', { check: 'kafka' });
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => call(PROBE_PATHS.ready, { from: '127.0.0.9' })),
    );
    const seconds = Math.floor((Date.now() - started) / 1000);
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(replies[0]!.body.details.kafka).toMatchObject({ status: 'up' });
    const runs = (await metric('ranking_readiness_checks_total', { check: 'kafka' })) - before;
    // However long the 50 took: one run per started second at most (not one per probe).
    expect(runs).toBeLessThanOrEqual(1 + seconds);
    expect(runs).toBeLessThan(50);
  });

  it('given a query past API_STATEMENT_TIMEOUT_MS, then PostgreSQL cancels it and the request is answered 503 with Retry-After', async () => {
    await world.leaderboard.stop();
    await world.startLeaderboard({ API_STATEMENT_TIMEOUT_MS: '300' });
    const release = await holdPlayers();
    try {
      const reply = await call(boardAt(instants[1]!));
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('1');
      expect(reply.body.detail).toMatch(/API_STATEMENT_TIMEOUT_MS/);
      // Cancelled, not left running: the API pool has nothing waiting on the lock.
      await waitFor(async () => (await apiStatements()).length === 0, {
        what: 'no API statement left',
      });
    } finally {
      await release();
    }
    expect((await call(boardAt(instants[1]!))).status).toBe(200);
  });

  describe('one rate limit in Redis', () => {
    const LIMIT = 12;
    let secondPort: number;
    const start = async (env: Record<string, string>) => {
      await world.leaderboard.stop();
      await second?.stop();
      await world.startLeaderboard({ RATE_LIMIT_PER_MINUTE: String(LIMIT), ...env });
      second = new ServiceProcess('dist/apps/leaderboard-service/src/main.js', {
        DATABASE_URL: world.databaseUrl,
        KAFKA_TOPIC_PREFIX: world.prefix,
        REDIS_KEY_PREFIX: world.redisPrefix,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        ...env,
      });
      second.start();
      secondPort = Number(new URL(await second.url()).port);
    };
    /**
     * `count` requests from one socket address, alternating between the two services, with
     * the headers `headers` gives the i-th.
     */
    const spread = async (
      count: number,
      from: string,
      headers: (i: number) => Record<string, string> = () => ({}),
    ) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i += 1)
        statuses.push(
          (
            await call('/ladders', {
              from,
              headers: headers(i),
              base: i % 2 ? secondPort : world.port,
            })
          ).status,
        );
      return statuses;
    };
    const allowed = (statuses: number[]) => statuses.filter((s) => s === 200).length;

    it('given two services on one Redis, then a client gets RATE_LIMIT_PER_MINUTE requests from both together, not from each', async () => {
      await start({});
      const statuses = await spread(2 * LIMIT, '127.0.0.21');
      expect(allowed(statuses)).toBe(LIMIT);
      expect(statuses.slice(LIMIT)).toEqual(Array.from({ length: LIMIT }, () => 429));
      // Another client is untouched, on either service.
      expect(await spread(2, '127.0.0.22')).toEqual([200, 200]);
    });

    it('given no TRUST_PROXY, then X-Forwarded-For is ignored: a client cannot make itself many', async () => {
      const statuses = await spread(2 * LIMIT, '127.0.0.23', (i) => ({
        'x-forwarded-for': `198.51.100.${i + 1}`,
      }));
      expect(allowed(statuses)).toBe(LIMIT);
    });

    it('given TRUST_PROXY, then the client named by the proxy is counted, and IPv6 clients by their /64', async () => {
      await start({ TRUST_PROXY: 'loopback' });
      // Every request through the one proxy address, for clients of their own.
      const proxy = '127.0.0.24';
      const v4 = (n: number) => () => ({ 'x-forwarded-for': `203.0.113.${n}` });
      expect(allowed(await spread(LIMIT, proxy, v4(1)))).toBe(LIMIT);
      expect(await spread(1, proxy, v4(1))).toEqual([429]);
      expect(await spread(1, proxy, v4(2))).toEqual([200]);

      // Two addresses of one /64 share an allowance; another /64 has its own.
      const net = (host: string) => () => ({ 'x-forwarded-for': `2001:db8:28:1::${host}` });
      const half = LIMIT / 2;
      expect(allowed(await spread(half, proxy, net('1')))).toBe(half);
      expect(allowed(await spread(half, proxy, net('ffff:2')))).toBe(half);
      expect(await spread(1, proxy, net('abcd:3'))).toEqual([429]);
      expect(await spread(1, proxy, () => ({ 'x-forwarded-for': '2001:db8:28:2::1' }))).toEqual([
        200,
      ]);
      const limited = await metrics(world.port);
      const limitedSecond = await metrics(secondPort);
      expect(
        (sample(limited, 'leaderboard_rate_limited_total', { route: '/v1/ladders' }) ?? 0) +
          (sample(limitedSecond, 'leaderboard_rate_limited_total', { route: '/v1/ladders' }) ?? 0),
      ).toBe(2);
    });
  });
});
