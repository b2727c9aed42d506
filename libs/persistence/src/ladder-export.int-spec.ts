import type { LadderEvent } from '@ranking/contracts';
import {
  createDataSource,
  eventPayloadPages,
  exportLog,
  EventStoreRepository,
  type Sql,
  sqlOf,
} from '@ranking/persistence';
import { collectText, createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// The event store read back in log order, a page at a time, against a real migrated database:
// one ladder's range, and every ladder's, across page boundaries and ladder boundaries.

const game = (ladder: string, seq: number): LadderEvent => ({
  id: `${ladder}-${seq}`,
  type: 'game.finished',
  ladder,
  gameId: `g-${seq}`,
  finishedAt: '2026-03-21T10:00:00+08:00',
  moves: 30,
  players: [
    { id: 'a', result: 'win' },
    { id: 'b', result: 'loss' },
  ],
});

describe('eventPayloadPages and exportLog (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let sql: Sql;
  // Stored out of order across ladders: reads must come back by ladder, then seq.
  const counts: [string, number][] = [
    ['qq-gomoku', 7],
    ['igame-gomoku', 5],
    ['qq-xiangqi', 1],
  ];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'ladder-export');
    await db.initialize();
    sql = sqlOf(db.manager);
    const eventStore = new EventStoreRepository(sql);
    for (const [ladder, n] of counts) {
      const events = Array.from({ length: n }, (_, i) => ({
        ladder,
        seq: n - i,
        event: game(ladder, n - i),
      }));
      await eventStore.appendEvents(events);
    }
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const ids = async (ladder: string | null, pageSize: number) => {
    const pages: string[][] = [];
    for await (const page of eventPayloadPages(sql, ladder, pageSize))
      pages.push(page.map((text) => (JSON.parse(text) as LadderEvent).id));
    return pages;
  };

  it('reads one ladder in seq order, a page at a time', async () => {
    expect(await ids('qq-gomoku', 3)).toEqual([
      ['qq-gomoku-1', 'qq-gomoku-2', 'qq-gomoku-3'],
      ['qq-gomoku-4', 'qq-gomoku-5', 'qq-gomoku-6'],
      ['qq-gomoku-7'],
    ]);
    expect(await ids('no-such-ladder', 3)).toEqual([]);
  });

  it('reads every ladder by ladder id, then seq, with pages across ladder boundaries', async () => {
    const all = (await ids(null, 4)).flat();
    expect(all).toEqual([
      ...[1, 2, 3, 4, 5].map((s) => `igame-gomoku-${s}`),
      ...[1, 2, 3, 4, 5, 6, 7].map((s) => `qq-gomoku-${s}`),
      'qq-xiangqi-1',
    ]);
    expect((await ids(null, 4)).map((p) => p.length)).toEqual([4, 4, 4, 1]);
  });

  it('exports NDJSON: one payload a line, the same events in the same order', async () => {
    const text = await collectText(exportLog(sql, null));
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => (JSON.parse(l) as LadderEvent).id)).toEqual(
      (await ids(null, 100)).flat(),
    );
  });
});
