import { randomBytes } from 'node:crypto';
import { LocalRedisCluster, TEST_ENV } from '@ranking/testing';
import { Cluster } from 'ioredis';
import {
  APPLIED_SEQ,
  BoardStore,
  BoardsUnavailableError,
  type BoardEntry,
  type SequencedChange,
} from './board-store.js';
import { type RedisClient, redisClient, unlinkPrefixed } from './redis-client.js';

const entry = (member: string, rating: number): BoardEntry => ({
  member,
  score: -rating,
  ranked: true,
  data: String(rating),
});

const LADDERS = ['l', 'v', 't', 'r', 'w', 'm', 's'];

/** Every key name a pattern matches, on every master of a cluster. */
const keysOf = async (redis: RedisClient, pattern: string): Promise<string[]> =>
  redis instanceof Cluster
    ? (await Promise.all(redis.nodes('master').map((n) => n.keys(pattern)))).flat()
    : redis.keys(pattern);

/**
 * The board store under a key prefix of its own, on the shared single Redis and on a local
 * three-master Redis Cluster (the same tests: every script must touch one slot).
 */
describe.each([
  { kind: 'single Redis', cluster: false },
  { kind: 'Redis Cluster of three masters', cluster: true },
])('BoardStore (real $kind)', ({ cluster: onCluster }) => {
  const prefix = `lbstore-${randomBytes(5).toString('hex')}:`;
  const cluster = onCluster ? new LocalRedisCluster() : null;
  let redis: RedisClient;
  let store: BoardStore;

  beforeAll(async () => {
    await cluster?.start();
    redis = redisClient(cluster?.url ?? TEST_ENV.redisUrl, 'board-store-test');
    store = new BoardStore(redis, prefix);
    for (const ladder of LADDERS) await store.markReady(ladder);
  }, 60_000);
  afterAll(async () => {
    if (redis) {
      if (!cluster) await unlinkPrefixed(redis, prefix);
      await redis.quit();
    }
    await cluster?.stop();
  });

  it('given a board, when a new version is half built, then readers still see the old one whole, and the new one whole after the switch', async () => {
    const first = store.build('l', '2026-11-30');
    await first.add([entry('a', 10), entry('b', 9), entry('c', 8)]);
    await first.commit({ asOf: '2026-11-29' }, 1);
    const second = store.build('l', '2026-11-30');
    await second.add(Array.from({ length: 50 }, (_, i) => entry(`p${i}`, i)));
    const during = await store.page('l', '2026-11-30', null, 10);
    expect(during?.total).toBe(3);
    expect(during?.items.map((i) => i.member)).toEqual(['a', 'b', 'c']);
    await second.add(Array.from({ length: 50 }, (_, i) => entry(`q${i}`, i)));
    await second.commit({ asOf: '2026-11-29' }, 1);
    const after = await store.page('l', '2026-11-30', null, 200);
    expect(after?.total).toBe(100);
    // The old version's keys are gone.
    expect(await keysOf(redis, `${prefix}lb:{l}:board:2026-11-30:${first.version}:*`)).toEqual([]);
  });

  it('head names the board and version a read would see, and changes only when a build switches', async () => {
    expect(await store.head('v', null)).toBeNull();
    const first = store.build('v', '2026-12-01');
    await first.add([entry('a', 1)]);
    await first.commit({ asOf: '2026-11-30' }, 5);
    expect(await store.head('v', null)).toEqual({ name: '2026-12-01', version: first.version });
    expect(await store.head('v', '2026-12-01')).toEqual({
      name: '2026-12-01',
      version: first.version,
    });
    expect(await store.head('v', '2026-11-01')).toBeNull();
    const newer = store.build('v', '2026-12-02');
    await newer.add([entry('a', 2)]);
    expect(await store.head('v', null)).toEqual({ name: '2026-12-01', version: first.version });
    await newer.commit({ asOf: '2026-12-01' }, 6);
    expect(await store.head('v', null)).toEqual({ name: '2026-12-02', version: newer.version });
    const page = await store.page('v', null, null, 10);
    expect(page?.meta.version).toBe(newer.version);
    const other = new BoardStore(redis, `${prefix}empty:`);
    await expect(other.head('v', null)).rejects.toBeInstanceOf(BoardsUnavailableError);
  });

  it('equal scores share a rank: the first rank of a page counts only strictly better members', async () => {
    const build = store.build('t', 'live');
    await build.add([entry('a', 5), entry('b', 4), entry('c', 4), entry('d', 3), entry('e', 4)]);
    await build.commit({}, null);
    const page = await store.page('t', 'live', { member: 'b', score: '-4' }, 2);
    expect(page?.items.map((i) => i.member)).toEqual(['c', 'e']);
    expect(page?.firstRank).toBe(2);
    expect(page?.start).toBe(2);
  });

  it("a slice's first rank counts only strictly better members, whether or not the member before it ties", async () => {
    const build = store.build('r', 'live');
    // In board order: a(5), b(4), c(4), e(4), d(3).
    await build.add([entry('a', 5), entry('b', 4), entry('c', 4), entry('d', 3), entry('e', 4)]);
    await build.commit({ [APPLIED_SEQ]: 0 }, null);
    const first = async (after: string, score: string) =>
      (await store.page('r', 'live', { member: after, score }, 10))!;
    expect(await first('e', '-4')).toMatchObject({ start: 4, firstRank: 5, total: 5 });
    expect((await first('c', '-4')).firstRank).toBe(2);
    expect((await first('a', '-5')).firstRank).toBe(2);
    expect((await store.page('r', 'live', null, 2))!).toMatchObject({ start: 0, firstRank: 1 });
    expect(await first('d', '-3')).toMatchObject({ start: 5, items: [], total: 5 });
    const [c] = await store.member('r', ['live'], 'c', 0);
    expect(c!.board).toMatchObject({ start: 2, firstRank: 2, items: [{ member: 'c' }] });
    const [d] = await store.member('r', ['live'], 'd', 0);
    expect(d!.board).toMatchObject({ start: 4, firstRank: 5, items: [{ member: 'd' }] });
    // The total follows live changes: one member leaves the ranking, one joins.
    expect(
      await store.applyInOrder('r', 'live', [
        {
          previousSeq: 0,
          seq: 1,
          members: [
            { member: 'b', score: -4, ranked: false, data: '4' },
            { member: 'f', score: -1, ranked: true, data: '1' },
          ],
        },
      ]),
    ).toEqual({ kind: 'done', index: 1, applied: 1, duplicates: 0 });
    expect((await store.page('r', 'live', null, 10))!.total).toBe(5);
    expect((await store.page('r', 'live', null, 10))!.items.map((i) => i.member)).toEqual([
      'a',
      'c',
      'e',
      'd',
      'f',
    ]);
  });

  it('applies messages in their order, each once: duplicates change nothing, a lost message or a summary stops the run, rows and seq move together', async () => {
    const rows = async () => {
      const page = (await store.page('s', 'live', null, 50))!;
      return {
        seq: page.meta[APPLIED_SEQ],
        ranked: page.items.map((i) => `${i.member}:${i.data}`),
        c: (await store.member('s', ['live'], 'c', 0))[0]!.data,
      };
    };
    const message = (
      previousSeq: number,
      seq: number,
      members: SequencedChange['members'],
    ): SequencedChange => ({ previousSeq, seq, members });
    const build = store.build('s', 'live');
    await build.add([
      { member: 'a', score: -9, ranked: true, data: '9|1|mu-a|sigma-a' },
      { member: 'b', score: -8, ranked: true, data: '8|1|mu-b|sigma-b' },
    ]);
    await build.commit({ [APPLIED_SEQ]: 10 }, null);

    // Seq 12 follows 10 (11 had no message), 15 follows 12; 9 and 12 again are duplicates.
    const first = await store.applyInOrder('s', 'live', [
      message(8, 9, [{ member: 'a', score: 0, ranked: true, data: 'stale' }]),
      message(10, 12, [
        // The row's first two fields; the stored fields after them are kept.
        { member: 'a', score: -7, ranked: true, data: '7|2', keepAfter: 2 },
        { member: 'c', score: -5, ranked: false, data: '5|1|x|y' },
      ]),
      message(10, 12, [{ member: 'a', score: 0, ranked: true, data: 'again' }]),
      message(12, 15, [{ member: 'b', removed: true }]),
    ]);
    expect(first).toEqual({ kind: 'done', index: 4, applied: 2, duplicates: 2 });
    expect(await rows()).toEqual({ seq: '15', ranked: ['a:7|2|mu-a|sigma-a'], c: '5|1|x|y' });

    // A message after a lost one (its previous, 17, was never applied): the run stops there,
    // with the message before it applied.
    const gap = await store.applyInOrder('s', 'live', [
      message(15, 16, [{ member: 'd', score: -6, ranked: true, data: '6' }]),
      message(17, 18, [{ member: 'e', score: -1, ranked: true, data: '1' }]),
      message(18, 19, [{ member: 'f', score: -1, ranked: true, data: '1' }]),
    ]);
    expect(gap).toEqual({ kind: 'gap', index: 1, applied: 1, duplicates: 0 });
    expect(await rows()).toEqual({
      seq: '16',
      ranked: ['a:7|2|mu-a|sigma-a', 'd:6'],
      c: '5|1|x|y',
    });

    // A summary always asks for a read, even at or below the board's seq (an annulment's
    // summary comes when it is swapped in, after later events' messages: ADR 24).
    expect(await store.applyInOrder('s', 'live', [message(0, 16, null)])).toMatchObject({
      kind: 'reload',
      index: 0,
    });
    expect(await store.applyInOrder('s', 'live', [message(16, 20, null)])).toMatchObject({
      kind: 'reload',
      index: 0,
    });
    // A summary after a lost message is a gap: there is more to read than the live board.
    expect(await store.applyInOrder('s', 'live', [message(18, 20, null)])).toMatchObject({
      kind: 'gap',
      index: 0,
    });

    // A new member whose row is to keep stored fields it does not have: its row as given.
    await store.applyInOrder('s', 'live', [
      message(16, 17, [{ member: 'g', score: -3, ranked: false, data: '3|0', keepAfter: 2 }]),
    ]);
    expect((await store.member('s', ['live'], 'g', 0))[0]!.data).toBe('3|0');

    // A board built without a seq (before boards kept one): every message follows a lost one.
    const unknown = store.build('s', 'live');
    await unknown.add([{ member: 'a', score: -1, ranked: true, data: '1' }]);
    await unknown.commit({}, null);
    expect(await store.applyInOrder('s', 'live', [message(0, 1, [])])).toMatchObject({
      kind: 'gap',
      index: 0,
    });
    expect(await store.applyInOrder('s', 'nothing', [message(0, 1, [])])).toEqual({
      kind: 'missing',
    });
  });

  it('splits a long run of messages into scripts of bounded size, in order', async () => {
    const build = store.build('s', 'long');
    await build.commit({ [APPLIED_SEQ]: 0 }, null);
    const messages: SequencedChange[] = Array.from({ length: 2_500 }, (_, i) => ({
      previousSeq: i,
      seq: i + 1,
      members: [
        { member: `p${i % 7}`, score: -i, ranked: true, data: String(i) },
        { member: `q${i % 3}`, score: -i, ranked: i % 2 === 0, data: String(i) },
        { member: 'r', score: -i, ranked: true, data: String(i) },
      ],
    }));
    expect(await store.applyInOrder('s', 'long', messages)).toEqual({
      kind: 'done',
      index: 2_500,
      applied: 2_500,
      duplicates: 0,
    });
    const page = (await store.page('s', 'long', null, 50))!;
    expect(page.meta[APPLIED_SEQ]).toBe('2500');
    // Each member holds its last message's row, ranked as that message said.
    const last = new Map<string, { score: number; ranked: boolean; data: string }>();
    for (const m of messages)
      for (const c of m.members!) if (!('removed' in c)) last.set(c.member, c);
    const ranked = [...last]
      .filter(([, c]) => c.ranked)
      .sort(([a, x], [b, y]) => x.score - y.score || (a < b ? -1 : 1))
      .map(([member, c]) => `${member}:${c.data}`);
    expect(ranked).toContain('p0:2499');
    expect(page.items.map((i) => `${i.member}:${i.data}`)).toEqual(ranked);
    expect((await store.member('s', ['long'], 'q0', 0))[0]).toMatchObject({
      data: '2499',
      index: null,
    });
  });

  it('keeps daily boards inside the window: older ones are dropped with their data', async () => {
    for (const [day, date] of [
      [10, '2026-01-10'],
      [20, '2026-01-20'],
      [45, '2026-02-14'],
    ] as const) {
      const b = store.build('w', date);
      await b.add([entry('a', day)]);
      await b.commit({ asOf: date }, day);
    }
    expect(await store.trimDays('w', 16)).toEqual(['2026-01-10']);
    expect(await store.days('w')).toEqual(['2026-02-14', '2026-01-20']);
    expect(await store.page('w', '2026-01-10', null, 10)).toBeNull();
  });

  it('a member read gives the row, index and neighbours per board, with multi-byte names and rows intact', async () => {
    const build = store.build('m', 'live');
    await build.add([
      entry('棋圣', 9),
      { member: '新手·甲', score: -8, ranked: true, data: '8|段位' },
      entry('b', 8),
      entry('c', 7),
      { member: 'unranked', score: -6, ranked: false, data: '6' },
    ]);
    await build.commit({ updatedAt: '2026-11-29T06:00:00.000Z' }, null);
    const [live, daily] = await store.member('m', ['live', null], 'b', 1);
    expect(daily).toEqual({ data: null, index: null, board: null });
    expect(live).toEqual({
      data: '8',
      // Ties go in byte order: 'b' before '新'.
      index: 1,
      board: {
        meta: expect.objectContaining({ name: 'live', updatedAt: '2026-11-29T06:00:00.000Z' }),
        start: 0,
        firstRank: 1,
        total: 4,
        items: [
          { member: '棋圣', score: '-9', data: '9' },
          { member: 'b', score: '-8', data: '8' },
          { member: '新手·甲', score: '-8', data: '8|段位' },
        ],
      },
    });
    const [off] = await store.member('m', ['live'], 'unranked', 1);
    expect(off).toMatchObject({ data: '6', index: null, board: { total: 4, items: [] } });
    const [none] = await store.member('m', ['live'], 'nobody', 1);
    expect(none).toMatchObject({ data: null, index: null });
  });

  it("the keys of a ladder share one slot, and different ladders' keys are spread over the nodes", async () => {
    const keys = await keysOf(redis, `${prefix}*`);
    const tags = new Set(keys.map((k) => /\{([^}]*)\}/.exec(k)?.[1]));
    expect(tags).toEqual(new Set(LADDERS));
    if (!(redis instanceof Cluster)) return;
    const slots = new Map<string, Set<number>>();
    for (const key of keys) {
      const slot = (await redis.call('CLUSTER', 'KEYSLOT', key)) as number;
      const ladder = /\{([^}]*)\}/.exec(key)![1]!;
      slots.set(ladder, (slots.get(ladder) ?? new Set()).add(slot));
    }
    for (const ladderSlots of slots.values()) expect(ladderSlots.size).toBe(1);
    const holders = await Promise.all(
      redis.nodes('master').map(async (n) => (await n.keys(`${prefix}*`)).length > 0),
    );
    expect(holders.filter(Boolean).length).toBeGreaterThan(1);
  });

  it('the ready markers are per ladder: one ladder without its marker is unavailable, the others not', async () => {
    expect(await store.unready(['l', 'v', 'nowhere'])).toEqual(['nowhere']);
    expect(await store.isReady(LADDERS)).toBe(true);
    await expect(store.page('nowhere', 'live', null, 10)).rejects.toBeInstanceOf(
      BoardsUnavailableError,
    );
  });

  it('without the ready marker (Redis lost its data), reads fail as unavailable instead of answering empty', async () => {
    const other = new BoardStore(redis, `${prefix}empty:`);
    await expect(other.page('l', 'live', null, 10)).rejects.toBeInstanceOf(BoardsUnavailableError);
    await expect(other.member('l', ['live'], 'a', 2)).rejects.toBeInstanceOf(
      BoardsUnavailableError,
    );
  });
});
