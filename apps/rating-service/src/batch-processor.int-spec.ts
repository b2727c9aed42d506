import { TOPICS } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import {
  createDataSource,
  exportLog,
  exportStandings,
  MessageLog,
  OffsetStore,
  preparedSqlOf,
  type RawMessage,
  type Sql,
} from '@ranking/persistence';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { collectText, createTestDatabase } from '@ranking/testing';
import { handleBatchGroup, handlePartitionBatch } from './partition-batch.js';

const ladders = ladderRegistry();

describe('rating service batches (real PostgreSQL, no Kafka)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  // As the service runs them: prepared statements, appends by COPY.
  const inTransaction = <T>(work: (sql: Sql) => Promise<T>) =>
    db.transaction((manager) => work(preparedSqlOf(manager)));

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'batch-test');
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const lines = [
    ...generateEvents({
      seed: 21,
      events: 4000,
      closes: true,
      badShare: 0.04,
      correctionShare: 0.02,
      days: 20,
    }),
  ];
  const messages: RawMessage[] = lines.map((line, i) => ({
    topic: TOPICS.ladderEvents,
    partition: 0,
    offset: String(i),
    key: Buffer.from('k'),
    value: Buffer.from(line),
  }));

  it('given a generated stream in uneven batches, then PostgreSQL holds what the offline replay computes', async () => {
    for (
      let at = 0, size = 1;
      at < messages.length;
      at += size, size = ((size * 7 + 13) % 400) + 1
    ) {
      await inTransaction((sql) =>
        handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 0, messages.slice(at, at + size)),
      );
    }
    const offline = new ReplayEngine(ladders);
    for (const line of lines) offline.ingestLine(line);
    const expected = JSON.parse([...offline.render()].join(''));

    const live = JSON.parse(
      await inTransaction(async (sql) => collectText(await exportStandings(sql, ladders, null))),
    );
    expect(live.ladders).toEqual(expected.ladders);
    expect(live.rejected).toEqual(expected.rejected);
    // The live void list is in log order (ladder by ladder); the stream's is in arrival order.
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect([...live.void].sort(byId)).toEqual([...expected.void].sort(byId));

    // The exported log replays to the same standings (it holds accepted events only).
    const log = await inTransaction((sql) => collectText(exportLog(sql, null)));
    const replayed = new ReplayEngine(ladders);
    for (const line of log.split('\n')) replayed.ingestLine(line);
    const fromLog = JSON.parse([...replayed.render()].join(''));
    expect(fromLog.ladders).toEqual(live.ladders);
    expect(fromLog.void).toEqual(live.void);
    expect(fromLog.rejected).toEqual([]);
  });

  it('when the same messages are delivered again, then nothing changes', async () => {
    const before = await inTransaction(async (sql) =>
      collectText(await exportStandings(sql, ladders, null)),
    );
    const counts = await db.query(
      'SELECT (SELECT count(*) FROM event_store) AS events, (SELECT count(*) FROM rating_history) AS history, (SELECT count(*) FROM outbox) AS outbox',
    );
    const again = await inTransaction((sql) =>
      handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 0, messages.slice(1000, 1500)),
    );
    expect(again).toMatchObject({ accepted: 0, skipped: 500 });
    expect(
      await inTransaction(async (sql) => collectText(await exportStandings(sql, ladders, null))),
    ).toBe(before);
    expect(
      await db.query(
        'SELECT (SELECT count(*) FROM event_store) AS events, (SELECT count(*) FROM rating_history) AS history, (SELECT count(*) FROM outbox) AS outbox',
      ),
    ).toEqual(counts);
  });

  it('dead-letters every rejected message unchanged, with its reason, through the outbox', async () => {
    const { messages: waiting } = await inTransaction((sql) =>
      new MessageLog(sql).claimOutbox(1_000_000),
    );
    const rows = waiting
      .filter((m) => m.topic === TOPICS.deadLetter)
      .map((m) => ({ reason: m.headers['x-reject-reason'], value: Buffer.from(m.value ?? '') }));
    const rejected: { reason: string; offset: string }[] = await db.query(
      'SELECT reason, "offset" FROM rejected_messages ORDER BY id',
    );
    expect(rows.map((r) => r.reason)).toEqual(rejected.map((r) => r.reason));
    rejected.forEach((r, i) =>
      expect(rows[i]!.value.toString('utf8')).toBe(lines[Number(r.offset)]),
    );
    expect(new Set(rejected.map((r) => r.reason))).toEqual(
      new Set([
        'invalid-json',
        'invalid-event',
        'unknown-ladder',
        'wrong-player-count',
        'duplicate-player',
        'inconsistent-result',
        'unknown-game',
      ]),
    );
  });

  it('when the stored checkpoint lies beyond the end of the log (a recreated topic), then the partition is read again from its start', async () => {
    const fresh = [
      ...generateEvents({ seed: 77, events: 20, days: 1, start: '2028-01-01T00:00:00+08:00' }),
    ].map((line, i) => ({
      topic: TOPICS.ladderEvents,
      partition: 5,
      offset: String(i),
      key: null,
      value: Buffer.from(line),
    }));
    await inTransaction((sql) =>
      new OffsetStore(sql).saveMany('rating-service', TOPICS.ladderEvents, new Map([[5, 5000n]])),
    );
    // Without the log's end, the old checkpoint would hide everything the new log holds...
    expect(
      await inTransaction((sql) =>
        handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 5, fresh),
      ),
    ).toMatchObject({ accepted: 0, skipped: 20, logRecreated: false });
    // ...with it, the checkpoint is known to belong to a log that is gone.
    const result = await inTransaction((sql) =>
      handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 5, fresh, { logEnd: 20n }),
    );
    expect(result).toMatchObject({ logRecreated: true, skipped: 0, nextOffset: 20n });
    expect(result.accepted).toBeGreaterThan(10);
    expect(result.accepted + result.rejected + result.duplicates).toBe(20);
    // Read once: delivered again, it changes nothing.
    expect(
      await inTransaction((sql) =>
        handlePartitionBatch(sql, ladders, TOPICS.ladderEvents, 5, fresh, { logEnd: 20n }),
      ),
    ).toMatchObject({ accepted: 0, skipped: 20, logRecreated: false });
  });

  it('given one fetch of several partitions in one transaction (a group commit), then each checkpoint moves on its own and the partitions apply in order', async () => {
    const lines = [
      ...generateEvents({ seed: 78, events: 60, days: 1, start: '2029-01-01T00:00:00+08:00' }),
    ];
    const part = (partition: number, from: number, to: number) =>
      lines.slice(from, to).map((line, i) => ({
        topic: TOPICS.ladderEvents,
        partition,
        offset: String(i),
        key: null,
        value: Buffer.from(line),
      }));
    const batches = [
      { partition: 9, messages: part(9, 50, 60) },
      { partition: 7, messages: part(7, 0, 30) },
      { partition: 8, messages: part(8, 30, 50) },
    ];
    // Partition 8 was read up to offset 10 before (say, before a crash).
    await inTransaction((sql) =>
      new OffsetStore(sql).saveMany('rating-service', TOPICS.ladderEvents, new Map([[8, 10n]])),
    );
    const result = await inTransaction((sql) =>
      handleBatchGroup(sql, ladders, TOPICS.ladderEvents, batches),
    );
    expect(result.skipped).toBe(10);
    expect(result.accepted + result.rejected + result.duplicates).toBe(50);
    expect(result.nextOffsets).toEqual(
      new Map([
        [7, 30n],
        [8, 20n],
        [9, 10n],
      ]),
    );
    const stored = await inTransaction((sql) =>
      new OffsetStore(sql).all('rating-service', TOPICS.ladderEvents),
    );
    expect([7, 8, 9].map((p) => stored.get(p))).toEqual([30n, 20n, 10n]);
    // Partitions apply in partition order, each in offset order: per ladder, the sequence
    // follows (partition, offset).
    // (A repeated id is applied once, where it first appears.)
    const applied = [
      ...new Set(
        [...lines.slice(0, 30), ...lines.slice(40, 60)].map(
          (line) => /"id":"([^"]+)"/.exec(line)![1]!,
        ),
      ),
    ];
    const rows = await db.query<{ event_id: string; ladder: string; seq: string }[]>(
      'SELECT event_id, ladder, seq FROM event_store WHERE event_id = ANY($1)',
      [applied],
    );
    const seqOf = new Map(rows.map((r) => [r.event_id, Number(r.seq)]));
    const last = new Map<string, number>();
    for (const id of applied.filter((id) => seqOf.has(id))) {
      const ladder = rows.find((r) => r.event_id === id)!.ladder;
      expect(seqOf.get(id)!).toBeGreaterThan(last.get(ladder) ?? 0);
      last.set(ladder, seqOf.get(id)!);
    }
    expect(seqOf.size).toBe(result.accepted);
    // The skipped part of partition 8 was never applied; delivered again, the group changes nothing.
    const skipped = lines.slice(30, 40).map((line) => /"id":"([^"]+)"/.exec(line)![1]!);
    expect(await db.query('SELECT 1 FROM event_store WHERE event_id = ANY($1)', [skipped])).toEqual(
      [],
    );
    expect(
      await inTransaction((sql) => handleBatchGroup(sql, ladders, TOPICS.ladderEvents, batches)),
    ).toMatchObject({ accepted: 0, skipped: 60 });
  });
});
