/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON answers are read untyped */
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { redisClient, type RedisClient } from '@ranking/redis';
import { LocalRedisCluster, waitFor } from '@ranking/testing';
import { expectedBoard, LeaderboardWorld } from './leaderboard-world.js';

const ladders = ladderRegistry();
const boardLadders = [...ladders.values()].filter((l) => l.rankedAfter !== null).map((l) => l.id);

/** The day after a close key: the board's date (ADR 4: the 06:00 after the day). */
const boardDate = (key: string) =>
  new Date(Date.parse(`${key}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const project = (rows: any[]) =>
  rows.map((r) => ({
    rank: r.rank,
    player: r.player,
    rating: r.rating,
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
  }));

/**
 * The leaderboard service with its boards on a local Redis Cluster of three masters: it builds
 * and serves the boards as on a single Redis, and when one master restarts empty only the
 * ladders that master held are rebuilt.
 */
describe('leaderboard service on a Redis Cluster (real Kafka, PostgreSQL, three Redis masters)', () => {
  const cluster = new LocalRedisCluster();
  let world: LeaderboardWorld;
  let rating: ReturnType<LeaderboardWorld['service']>;
  let admin: RedisClient;
  const lines = [
    ...generateEvents({ seed: 87, events: 1500, closes: true, days: 3, playersPerLadder: 30 }),
  ];
  /** Per ladder, the newest daily close and the log cut just after it. */
  const newestClose = new Map<string, { key: string; cut: number }>();
  for (const [i, line] of lines.entries()) {
    if (!line.includes('"period.closed"')) continue;
    try {
      const e = JSON.parse(line);
      if (e.type === 'period.closed' && e.period === 'daily' && boardLadders.includes(e.ladder))
        newestClose.set(e.ladder, { key: e.key, cut: i + 1 });
    } catch {
      // a bad line of the stream
    }
  }
  const snapshot = async () => {
    const boards: Record<string, unknown> = {};
    for (const id of boardLadders) {
      boards[`${id} live`] = await world.wholeBoard(id, 'view=live');
      boards[`${id} daily`] = await world.wholeBoard(id, 'view=daily');
    }
    return boards;
  };
  /** The master holding a ladder's keys (its port), from the cluster's slot map. */
  const holderOf = async (ladder: string): Promise<number> => {
    const slot = (await admin.call('CLUSTER', 'KEYSLOT', `lb:{${ladder}}:ready`)) as number;
    const ranges = (await admin.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    const range = ranges.find(([from, to]) => from <= slot && slot <= to);
    if (!range) throw new Error(`no master serves slot ${slot}`);
    return range[2][1];
  };

  beforeAll(async () => {
    await cluster.start();
    admin = redisClient(cluster.url, 'cluster-test-admin');
    world = new LeaderboardWorld(ladders, cluster.url);
    await world.setUp();
    rating = world.service();
    rating.start();
    await world.startLeaderboard();
    await world.produce(lines);
    await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
    await waitFor(
      async () =>
        (await world.db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0' &&
        (
          await Promise.all(
            [...newestClose].map(
              async ([id, c]) =>
                (await world.get(`/ladders/${id}/leaderboard?date=${boardDate(c.key)}&limit=1`))
                  .status,
            ),
          )
        ).every((s) => s === 200),
      { timeout: 60_000, interval: 250, what: 'the boards' },
    );
    await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'caught up' });
  }, 240_000);

  afterAll(async () => {
    admin?.disconnect();
    await world?.leaderboard?.stop();
    await rating?.stop();
    await world?.tearDown();
    await cluster.stop();
  });

  it('serves each live board and newest daily board as the replay of the log computes it, its ladders spread over the masters', async () => {
    expect(newestClose.size).toBe(boardLadders.length);
    for (const [id, close] of newestClose) {
      expect({ id, rows: project(await world.wholeBoard(id, 'view=live')) }).toEqual({
        id,
        rows: expectedBoard(lines, ladders, id),
      });
      const { body } = await world.get(`/ladders/${id}/leaderboard?limit=1`);
      expect(body.date).toBe(boardDate(close.key));
      expect({ id, rows: project(await world.wholeBoard(id, 'view=daily')) }).toEqual({
        id,
        rows: expectedBoard(lines.slice(0, close.cut), ladders, id),
      });
    }
    // A player read: one script over the live and the newest daily board of the ladder.
    const [top] = await world.wholeBoard('qq-xiangqi', 'view=live');
    const player = await world.get(`/ladders/qq-xiangqi/players/${top.player}?around=2`);
    expect(player.status).toBe(200);
    expect(JSON.stringify(player.body)).toContain(top.player);
    const holders = new Set(await Promise.all(boardLadders.map(holderOf)));
    expect(holders.size).toBeGreaterThan(1);
    expect((await world.get('/health/ready')).status).toBe(200);
  });

  it('when one master restarts empty, then only the ladders it held are rebuilt and every board comes back', async () => {
    const before = await snapshot();
    const port = await holderOf('qq-xiangqi');
    const lost = (await Promise.all(boardLadders.map(async (id) => [id, await holderOf(id)])))
      .filter(([, p]) => p === port)
      .map(([id]) => id);
    expect(lost.length).toBeLessThan(boardLadders.length);
    const logged = world.leaderboard.logLines.length;
    await cluster.restartEmpty(port);
    const after = await waitFor(
      async () => {
        const boards = await snapshot();
        return JSON.stringify(boards) === JSON.stringify(before) ? boards : undefined;
      },
      { timeout: 60_000, interval: 250, what: 'the boards after the restart' },
    );
    expect(after).toEqual(before);
    const rebuilds = world.leaderboard.logLines
      .slice(logged)
      .filter((l) => String(l.message).startsWith('boards missing in Redis'));
    expect(rebuilds.length).toBeGreaterThan(0);
    for (const line of rebuilds)
      expect([...(line.ladders as string[])].sort()).toEqual(lost.sort());
    await waitFor(async () => (await world.get('/health/ready')).status === 200, {
      what: 'ready again',
    });
  });
});
