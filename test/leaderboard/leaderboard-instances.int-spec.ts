import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { probe, sampleSum, ServiceProcess, waitFor } from '@ranking/testing';
import { Redis } from 'ioredis';
import { expectedBoard, LeaderboardWorld } from './leaderboard-world.js';

const ladders = ladderRegistry();
const lines = [
  ...generateEvents({ seed: 116, events: 2000, closes: true, days: 3, playersPerLadder: 40 }),
];

/**
 * Two leaderboard services in one consumer group on one Redis (real Kafka, PostgreSQL, Redis):
 * they split the rating changes, serve the same boards, and when the boards are lost each
 * ladder's rebuild is claimed by one of them while the other serves what it built.
 */
describe('two leaderboard services', () => {
  const world = new LeaderboardWorld(ladders);
  let rating: ServiceProcess;
  let second: ServiceProcess;
  let secondUrl: string;
  const rebuilds = async () =>
    sampleSum(
      (await probe(`http://127.0.0.1:${world.port}/metrics`)).text,
      'leaderboard_rebuilds_total',
    ) + sampleSum((await probe(`${secondUrl}/metrics`)).text, 'leaderboard_rebuilds_total');
  const boards = async (base?: string) => ({
    daily: await world.wholeBoard('qq-xiangqi', 'view=daily', base),
    live: await world.wholeBoard('igame-gomoku', 'view=live', base),
  });

  beforeAll(async () => {
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    second = new ServiceProcess('dist/apps/leaderboard-service/src/main.js', {
      DATABASE_URL: world.databaseUrl,
      KAFKA_TOPIC_PREFIX: world.prefix,
      REDIS_KEY_PREFIX: world.redisPrefix,
      RATE_LIMIT_PER_MINUTE: '0',
    });
    second.start();
    secondUrl = await second.url();
    await world.produce(lines);
    await waitFor(
      async () =>
        await world.settled(),
      { timeout: 120_000, interval: 250, what: 'the boards to catch up' },
    );
  }, 240_000);

  afterAll(() => world.tearDownAll(second, rating));

  it('then they share the rating changes and serve the same boards, the replay’s', async () => {
    const admin = world.kafka.admin();
    await admin.connect();
    const { groups } = await admin.describeGroups([`${world.prefix}leaderboard-service`]);
    await admin.disconnect();
    expect(groups[0]!.members).toHaveLength(2);
    const first = await boards();
    expect(await boards(secondUrl)).toEqual(first);
    expect(first.live.map((r: { player: string }) => r.player)).toEqual(
      expectedBoard(lines, ladders, 'igame-gomoku').map((r) => r.player),
    );
  });

  it('when the boards are lost from Redis, then each ladder is rebuilt once, by one instance, and both serve them again', async () => {
    const before = await boards();
    const built = await rebuilds();
    const redis = new Redis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${world.redisPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.unlink(...keys);
    await redis.quit();
    // Clients retry the 503s a rebuild answers, as they are told to.
    await waitFor(async () => JSON.stringify(await boards()) === JSON.stringify(before), {
      timeout: 60_000,
      interval: 250,
      what: 'the first instance to serve the boards again',
    });
    await waitFor(async () => JSON.stringify(await boards(secondUrl)) === JSON.stringify(before), {
      timeout: 60_000,
      interval: 250,
      what: 'the second instance to serve the boards again',
    });
    // Every ladder with a board rebuilt once, by one instance or the other, never by both. The
    // two boards above can be back before the other ladders' rebuilds finish: wait for all of
    // them, then check that none ran twice.
    const withBoards = [...ladders.values()].filter((l) => l.rankedAfter !== null).length;
    await waitFor(async () => (await rebuilds()) >= built + withBoards, {
      timeout: 60_000,
      interval: 250,
      what: 'every ladder with a board to be rebuilt',
    });
    expect(await rebuilds()).toBe(built + withBoards);
  });
});
