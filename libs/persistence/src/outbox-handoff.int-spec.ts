import {
  createDataSource,
  MessageLog,
  OutboxHandoff,
  type OutboxMessage,
  preparedSqlOf,
} from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// A relay with the handoff publishes the bundles its process wrote from memory: the messages
// must be byte for byte those a claim reads back from the table, in the same order, and the
// rows are locked and deleted as before.

/** A message as the broker gets it: bytes. */
const asBytes = (m: OutboxMessage) => ({
  topic: m.topic,
  key: m.key === null ? null : Buffer.from(m.key),
  value: m.value === null ? null : Buffer.from(m.value),
  headers: m.headers,
});

const bundle = (n: number): OutboxMessage[] => [
  {
    topic: 'changes',
    key: 'ladder',
    value: `{"n":${n},"why":"é \\" \u2028"}`,
    headers: { id: `e${n}` },
  },
  { topic: 'dead', key: Buffer.from([0xff, n]), value: Buffer.from([0xc3, 0x28, n]), headers: {} },
  { topic: 'dead', key: null, value: null, headers: { reason: 'empty' } },
];

describe('OutboxHandoff (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'outbox-handoff');
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });
  afterEach(() => db.query('DELETE FROM outbox'));

  const enqueue = (handoff: OutboxHandoff | undefined, messages: OutboxMessage[]) =>
    db.transaction((m) => new MessageLog(preparedSqlOf(m), handoff).enqueue(messages));
  /** Claims, and deletes what it claimed unless `fail` (the publish failed: rolled back). */
  const claim = (handoff: OutboxHandoff | undefined, fail = false) =>
    db
      .transaction(async (m) => {
        const log = new MessageLog(preparedSqlOf(m), handoff);
        const claimed = await log.claimOutbox(100);
        if (fail) throw Object.assign(new Error('publish failed'), { claimed });
        await log.deleteOutbox(claimed.rows);
        return claimed.messages.map(asBytes);
      })
      .catch((error: { claimed?: { messages: OutboxMessage[] } }) => {
        if (!error.claimed) throw error;
        return error.claimed.messages.map(asBytes);
      });
  const readBack = () => claim(undefined, true);

  it('given bundles this process wrote, then the relay publishes the bytes the table holds, in row order, and deletes the rows', async () => {
    const handoff = new OutboxHandoff();
    await enqueue(handoff, bundle(1));
    await enqueue(undefined, bundle(2)); // written elsewhere: read back
    await enqueue(handoff, bundle(3));
    const fromTable = await readBack();
    expect(fromTable).toEqual([...bundle(1), ...bundle(2), ...bundle(3)].map(asBytes));
    expect(await claim(handoff)).toEqual(fromTable);
    expect(handoff.snapshot().size).toBe(0);
    expect(await db.query('SELECT count(*)::int AS n FROM outbox')).toEqual([{ n: 0 }]);
  });

  it('given a transaction that rolled back after its enqueue, then its bundle is never published', async () => {
    const handoff = new OutboxHandoff();
    await expect(
      db.transaction(async (m) => {
        await new MessageLog(preparedSqlOf(m), handoff).enqueue(bundle(4));
        throw new Error('fold failed');
      }),
    ).rejects.toThrow('fold failed');
    await enqueue(handoff, bundle(5));
    expect(await claim(handoff)).toEqual(bundle(5).map(asBytes));
  });

  it('given a failed publish, or more than the handoff holds, then the rows are read back unchanged', async () => {
    const handoff = new OutboxHandoff(4);
    await enqueue(handoff, bundle(6));
    await enqueue(handoff, bundle(7)); // pushes bundle 6 out: six messages, four held at most
    expect(handoff.snapshot().size).toBe(1);
    const expected = [...bundle(6), ...bundle(7)].map(asBytes);
    expect(await claim(handoff, true)).toEqual(expected);
    expect(handoff.snapshot().size).toBe(0);
    expect(await claim(handoff)).toEqual(expected);
  });
});
