import { randomBytes } from 'node:crypto';
import { TEST_ENV, waitFor } from '@ranking/testing';
import { type BoardEntry, BoardStore } from '@ranking/redis';
import { Redis } from 'ioredis';
import { BoardHeads } from './board-heads.js';

const entry = (member: string, rating: number): BoardEntry => ({
  member,
  score: -rating,
  ranked: true,
  data: String(rating),
});

/** Board heads kept in memory against the real Redis: they follow every switch and drop. */
describe('BoardHeads (real Redis)', () => {
  const prefix = `lbheads-${randomBytes(5).toString('hex')}:`;
  const redis = new Redis(TEST_ENV.redisUrl);
  const store = new BoardStore(redis, prefix);
  // Another process's view: a second connection and store, as a second service instance has.
  const name = `heads-test-${randomBytes(4).toString('hex')}`;
  const other = new Redis(TEST_ENV.redisUrl, { connectionName: name });
  const heads = new BoardHeads(other, new BoardStore(other, prefix));
  /** The last command Redis ran for a named connection. */
  const lastCommand = async (connection: string) =>
    new RegExp(` name=${connection} .* cmd=(\\S+)`).exec(
      (await redis.call('CLIENT', 'LIST')) as string,
    )?.[1];

  const publish = async (ladder: string, day: string, score: number) => {
    const build = store.build(ladder, day);
    await build.add([entry('a', score)]);
    await build.commit({ asOf: day }, score);
    return build.version;
  };

  beforeAll(async () => {
    for (const ladder of ['a', 'b', 'c', 'd', 'e']) await store.markReady(ladder);
    // The board keeper's finding, as the service's keeper reports it every second.
    heads.boardsFound(true);
    await waitFor(() => heads.following, { what: 'the subscription' });
  });
  afterAll(async () => {
    heads.onApplicationShutdown();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.unlink(...keys);
    await redis.quit();
    await other.quit();
  });

  /** Waits until a head read is served from memory (past the switch's own announcement). */
  const heldHead = (ladder: string, wanted: string | null) =>
    waitFor(
      async () => {
        const head = await heads.head(ladder, wanted);
        await other.ping();
        for (let i = 0; i < 20; i += 1) expect(await heads.head(ladder, wanted)).toEqual(head);
        return (await lastCommand(name)) === 'ping' ? head : undefined;
      },
      { what: 'head reads without a Redis command' },
    );

  it('given a known head, when read again, then Redis is not asked', async () => {
    const version = await publish('a', '2026-12-01', 1);
    expect(await heldHead('a', null)).toEqual({ name: '2026-12-01', version });
  });

  it('when a newer board or a new version is switched in, then the head follows it', async () => {
    await publish('b', '2026-12-01', 1);
    await heldHead('b', null);
    const newer = await publish('b', '2026-12-02', 2);
    await waitFor(async () => (await heads.head('b', null))?.version === newer, {
      what: 'the newer board',
    });
    expect(await heads.head('b', null)).toEqual({ name: '2026-12-02', version: newer });
    await heldHead('b', '2026-12-02');
    const rebuilt = await publish('b', '2026-12-02', 2);
    await waitFor(async () => (await heads.head('b', '2026-12-02'))?.version === rebuilt, {
      what: 'the rebuilt board',
    });
  });

  it('when a board is dropped from the window, then its head is forgotten', async () => {
    await publish('c', '2026-12-01', 10);
    await publish('c', '2026-12-20', 29);
    expect(await heldHead('c', '2026-12-01')).not.toBeNull();
    await store.trimDays('c', 20);
    await waitFor(async () => (await heads.head('c', '2026-12-01')) === null, {
      what: 'the dropped board',
    });
  });

  it('when the keeper finds the boards lost, then no head is kept until they are ready again', async () => {
    const first = await publish('e', '2026-12-01', 1);
    expect((await heldHead('e', null))?.version).toBe(first);
    heads.boardsFound(false);
    expect(heads.following).toBe(false);
    // Rebuilt behind its back (no announcement heard): the next read asks Redis.
    await redis.unlink(`${prefix}lb:{e}:board:2026-12-01`);
    expect(await heads.head('e', null)).toBeNull();
    const second = await publish('e', '2026-12-01', 1);
    expect((await heads.head('e', null))?.version).toBe(second);
    heads.boardsFound(true);
    expect((await heldHead('e', null))?.version).toBe(second);
  });

  it('when its subscription is lost, then it forgets every head and follows switches again once back', async () => {
    const first = await publish('d', '2026-12-01', 1);
    expect((await heldHead('d', null))?.version).toBe(first);
    const clients = (await redis.call('CLIENT', 'LIST')) as string;
    const id = new RegExp(`^id=(\\d+) .* name=${name}-switches `, 'm').exec(clients)?.[1];
    expect(id).toBeDefined();
    await redis.call('CLIENT', 'KILL', 'ID', id!);
    const second = await publish('d', '2026-12-01', 1);
    // Whatever was announced while away, the next read asks Redis.
    await waitFor(async () => (await heads.head('d', null))?.version === second, {
      what: 'a head read again',
    });
    await waitFor(() => heads.following, { what: 'the subscription back' });
    expect((await heldHead('d', null))?.version).toBe(second);
    const third = await publish('d', '2026-12-01', 1);
    await waitFor(async () => (await heads.head('d', null))?.version === third, {
      what: 'a switch after the reconnect',
    });
  });
});
