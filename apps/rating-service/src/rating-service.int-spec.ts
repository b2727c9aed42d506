import { generateEvents } from '@ranking/generator';
import { topicLayout, topicNames } from '@ranking/kafka';
import { createDataSource, exportLog, exportStandings, type Sql } from '@ranking/persistence';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import {
  createTestDatabase,
  ServiceProcess,
  testKafka,
  uniqueName,
  waitFor,
} from '@ranking/testing';
import type { DataSource } from 'typeorm';

const ladders = ladderRegistry();
const collect = async (chunks: AsyncIterable<string> | Iterable<string>) => {
  let text = '';
  for await (const c of chunks) text += c;
  return text;
};

/** The rating service as a process on the real broker and database. */
describe('rating service (real Kafka and PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  const prefix = `${uniqueName('t')}.`;
  const topics = topicNames(prefix);
  const kafka = testKafka();
  const sql: Sql = { query: (text, params) => db.query(text, params) };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'rating-e2e');
    await db.initialize();
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
    await admin.disconnect();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(topics) });
    await admin.disconnect();
  });

  const service = () =>
    new ServiceProcess('dist/apps/rating-service/src/main.js', {
      DATABASE_URL: database.url,
      KAFKA_TOPIC_PREFIX: prefix,
      LOG_LEVEL: 'warn',
    });

  /** Produces lines keyed by ladder (unparseable lines keyed by nothing in particular). */
  async function produce(lines: readonly string[]): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    for (let i = 0; i < lines.length; i += 500) {
      await producer.send({
        topic: topics.ladderEvents,
        messages: lines
          .slice(i, i + 500)
          .map((value) => ({ key: /"ladder":"([^"]+)"/.exec(value)?.[1] ?? 'unknown', value })),
      });
    }
    await producer.disconnect();
  }

  /** Every produced message is behind the stored checkpoints. */
  async function drained(): Promise<boolean> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(topics.ladderEvents);
      const rows: { partition: number; next_offset: string }[] = await db.query(
        "SELECT partition, next_offset FROM consumer_offsets WHERE consumer = 'rating-service' AND topic = $1",
        [topics.ladderEvents],
      );
      const stored = new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
      return ends.every((e) => Number(e.high) === 0 || stored.get(e.partition) === Number(e.high));
    } finally {
      await admin.disconnect();
    }
  }

  async function expectReplayEquality(lines: readonly string[]): Promise<void> {
    const live = JSON.parse(await collect(await exportStandings(sql, ladders, null)));
    const log = await collect(exportLog(sql, null));
    const fromLog = new ReplayEngine(ladders);
    for (const line of log.split('\n')) fromLog.ingestLine(line);
    const replayed = JSON.parse([...fromLog.render()].join(''));
    expect(live.ladders).toEqual(replayed.ladders);
    expect(live.void).toEqual(replayed.void);
    // Each ladder keeps its order on its partition, so the whole stream folds to the same ladders.
    const offline = new ReplayEngine(ladders);
    for (const line of lines) offline.ingestLine(line);
    expect(live.ladders).toEqual(JSON.parse([...offline.render()].join('')).ladders);
  }

  const first = [
    ...generateEvents({
      seed: 31,
      events: 3000,
      closes: true,
      badShare: 0.04,
      correctionShare: 0.02,
      days: 15,
    }),
  ];
  const second = [
    ...generateEvents({
      seed: 32,
      events: 6000,
      closes: true,
      badShare: 0.02,
      correctionShare: 0.02,
      days: 10,
      start: '2027-01-01T00:00:00+08:00',
    }),
  ];

  it('given a generated stream, when the service drains it, then the state equals the replay of its log, and rejects are dead-lettered', async () => {
    const lines = first;
    const rating = service();
    rating.start();
    try {
      await produce(lines);
      await waitFor(drained, { timeout: 90_000, interval: 250, what: 'the backlog to drain' });
      await expectReplayEquality(lines);
      const rejected: { count: string }[] = await db.query(
        'SELECT count(*) FROM rejected_messages',
      );
      await waitFor(async () => (await db.query('SELECT count(*) AS n FROM outbox'))[0].n === '0', {
        what: 'the outbox to empty',
      });
      const admin = kafka.admin();
      await admin.connect();
      const dead = await admin.fetchTopicOffsets(topics.deadLetter);
      await admin.disconnect();
      expect(dead.reduce((n, p) => n + Number(p.high), 0)).toBe(Number(rejected[0]!.count));
      expect(Number(rejected[0]!.count)).toBeGreaterThan(0);
    } finally {
      await rating.stop();
    }
  });

  it('when the service is SIGKILLed 5 times during a load and restarted, then nothing is lost or applied twice', async () => {
    await produce(second);
    const storedCount = async () =>
      Number((await db.query('SELECT count(*) AS n FROM event_store'))[0].n);
    const progress: number[] = [];
    for (let kill = 0; kill < 5; kill++) {
      const rating = service();
      rating.start();
      // Kill at a moment when it is working: once it has applied some more events.
      const from = await storedCount();
      await waitFor(async () => (await storedCount()) > from + 150 + kill * 37, {
        timeout: 60_000,
        interval: 20,
        what: 'progress',
      });
      await rating.stop('SIGKILL');
      progress.push(await storedCount());
    }
    // The kills landed during the load: it moved between them and was not done by the last.
    expect(new Set(progress).size).toBe(5);
    const rating = service();
    rating.start();
    try {
      await waitFor(drained, {
        timeout: 120_000,
        interval: 250,
        what: 'the backlog to drain after the crashes',
      });
      // Both streams, each ladder in its partition's order: what the event store must hold, once each.
      const offline = new ReplayEngine(ladders);
      const accepted = new Set<string>();
      for (const line of [...first, ...second]) {
        const result = offline.ingestLine(line);
        if (result.kind === 'accepted') accepted.add(result.event.id);
      }
      const stored: { event_id: string }[] = await db.query('SELECT event_id FROM event_store');
      expect(progress[4]).toBeLessThan(accepted.size);
      expect(stored).toHaveLength(accepted.size);
      expect(new Set(stored.map((r) => r.event_id))).toEqual(accepted);
      await expectReplayEquality([...first, ...second]);
    } finally {
      await rating.stop();
    }
  }, 300_000);
});
