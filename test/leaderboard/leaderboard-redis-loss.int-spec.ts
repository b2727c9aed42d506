import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { PrivateRedis, waitFor } from '@ranking/testing';
import { Redis } from 'ioredis';
import { freePort, LeaderboardWorld } from './leaderboard-world.js';
import { OpenApiAnswers } from './openapi-answers.js';

describe('leaderboard service when Redis loses its data or goes away', () => {
  const ladders = ladderRegistry();
  let redis: PrivateRedis;
  let world: LeaderboardWorld;
  let rating: ReturnType<LeaderboardWorld['service']>;
  const lines = [
    ...generateEvents({ seed: 81, events: 1500, closes: true, days: 3, playersPerLadder: 30 }),
  ];
  const snapshot = async () => ({
    daily: await world.wholeBoard('qq-xiangqi', 'view=daily'),
    live: await world.wholeBoard('igame-gomoku', 'view=live'),
  });
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    world = new LeaderboardWorld(ladders, redis.url);
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    await world.produce(lines);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(
      async () =>
        (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0' &&
        (await world.get('/ladders/qq-xiangqi/leaderboard')).status === 200,
      { timeout: 60_000, interval: 250, what: 'the boards' },
    );
    // Settled: the rating service drained and its outbox is empty (above), and the leaderboard
    // service applied every rating change.
    await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'caught up' });
    before = await snapshot();
    expect(before.daily.length).toBeGreaterThan(0);
  }, 240_000);

  afterAll(async () => {
    await world?.leaderboard?.stop();
    await rating?.stop();
    await world?.tearDown();
    await redis?.stop();
  });

  it('when Redis is flushed while the service runs, then the boards come back by themselves', async () => {
    const admin = new Redis(redis.url);
    await admin.flushall();
    await admin.quit();
    // A client pages through the boards, retrying the 503s a rebuild answers, as told to.
    const after = await waitFor(() => snapshot(), {
      timeout: 30_000,
      what: 'the boards after the flush',
    });
    expect(after).toEqual(before);
    // Each ladder serves again once its own boards are back; ready once every ladder's are.
    await waitFor(async () => (await world.get('/health')).status === 200, {
      timeout: 30_000,
      what: 'ready after the rebuild',
    });
  });

  it('when Redis stops, then the API answers 503 with a clear message, and recovers when Redis is back', async () => {
    await redis.stop();
    const down = await waitFor(
      async () => {
        const answer = await world.get('/ladders/qq-xiangqi/leaderboard');
        return answer.status === 503 ? answer : undefined;
      },
      { timeout: 15_000, what: '503' },
    );
    expect(down.body).toMatchObject({
      type: 'about:blank',
      status: 503,
      title: 'Service Unavailable',
    });
    expect(down.body.detail).toMatch(/unavailable.*retry/);
    // As the committed OpenAPI document says, on the /v1 path as on the old one.
    const path = '/v1/ladders/qq-xiangqi/leaderboard';
    const res = await fetch(`http://127.0.0.1:${world.port}${path}`);
    const answer = {
      status: res.status,
      contentType: res.headers.get('content-type'),
      text: await res.text(),
    };
    expect(answer.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(new OpenApiAnswers().problems('GET', path, answer)).toEqual([]);
    expect((await world.get('/ladders/igame-gomoku/players/gomoku1')).status).toBe(503);
    // Readiness is computed at most once a second and shared: the next computation sees it.
    const health = await waitFor(
      async () => {
        const answer = await world.get('/health');
        return answer.status === 503 ? answer : undefined;
      },
      { timeout: 5_000, what: 'readiness to see Redis down' },
    );
    expect(health.body.error.redis.status).toBe('down');
    expect(health.body.details.postgres.status).toBe('up');
    await redis.start();
    await waitFor(async () => (await world.get('/ladders/qq-xiangqi/leaderboard')).status === 200, {
      timeout: 30_000,
      what: 'recovery',
    });
    expect(await snapshot()).toEqual(before);
    await waitFor(async () => (await world.get('/health')).status === 200, {
      timeout: 30_000,
      what: 'ready after the rebuild',
    });
  });
});
