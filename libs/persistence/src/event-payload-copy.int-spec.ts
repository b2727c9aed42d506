import type { LadderEvent } from '@ranking/contracts';
import {
  copyEventPayloads,
  createDataSource,
  eventPayloadPages,
  EventStoreRepository,
  ladderLog,
  PgLadderStore,
  type Sql,
  sqlOf,
  unescapeCopyText,
} from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import pg from 'pg';
import type { DataSource } from 'typeorm';

// The event store streamed by COPY (on a client, and by PgLadderStore on a transaction's own)
// against a real migrated database: the same texts in the same order as the paged read, across
// batch, socket-chunk and flow-control boundaries, with payloads holding what COPY escapes and
// characters of several UTF-8 bytes.

const LADDER = 'igame-gomoku';
/** Enough text for several socket chunks and dozens of batches. */
const EVENTS = 9_000;

const ids = [
  'plain',
  'quote"d',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '棋手',
  'emoji😀',
  'ctl\u0001',
];
const game = (ladder: string, seq: number): LadderEvent => ({
  id: `${ladder}-${seq}`,
  type: 'game.finished',
  ladder,
  gameId: `g-${seq}-${ids[seq % ids.length]!}`,
  finishedAt: '2026-03-21T10:00:00+08:00',
  moves: 30 + (seq % 50),
  players: [
    { id: `${ids[seq % ids.length]!}-${seq % 97}`, result: 'win' },
    { id: `b-${'x'.repeat(seq % 300)}`, result: 'loss' },
  ],
});

describe('copyEventPayloads and PgLadderStore.events (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;
  let sql: Sql;
  let paged: string[];

  const client = async () => {
    const c = new pg.Client({ connectionString: database.url });
    await c.connect();
    return c;
  };
  const lines = (batches: string[]) => batches.join('').split('\n').slice(0, -1);
  const collect = async (source: AsyncIterable<string>) => {
    const batches: string[] = [];
    for await (const batch of source) batches.push(batch);
    return batches;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'event-payload-reader');
    await db.initialize();
    sql = sqlOf(db.manager);
    const eventStore = new EventStoreRepository(sql);
    for (let from = 1; from <= EVENTS; from += 1000) {
      const seqs = Array.from({ length: Math.min(1000, EVENTS - from + 1) }, (_, i) => from + i);
      // Another ladder's rows around this one's: the read takes only its own.
      await eventStore.appendEvents(
        seqs.map((seq) => ({ ladder: LADDER, seq, event: game(LADDER, seq) })),
      );
      await eventStore.appendEvents(
        seqs
          .slice(0, 10)
          .map((seq) => ({ ladder: 'qq-gomoku', seq, event: game('qq-gomoku', seq) })),
      );
    }
    // A payload stored with a line break between tokens (as JSON allows).
    await db.query(
      `UPDATE event_store SET payload = replace(payload, ',"type"', E',\\n"type"') WHERE ladder = $1 AND seq = 5`,
      [LADDER],
    );
    paged = [];
    for await (const page of eventPayloadPages(sql, LADDER, 700)) paged.push(...page);
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  /** The paged texts as the stream gives them: a line break between tokens is a space. */
  const asStreamed = (texts: string[]) => texts.map((t) => t.replace(/\n/g, ' '));

  it('streams one ladder in seq order: the paged read’s texts, one a line, in batches of whole payloads', async () => {
    expect(paged).toHaveLength(EVENTS);
    expect(paged[4]).toContain('\n');
    const c = await client();
    try {
      const batches = await collect(copyEventPayloads(c, LADDER));
      expect(batches.length).toBeGreaterThan(40);
      for (const batch of batches) expect(batch.endsWith('\n')).toBe(true);
      expect(lines(batches)).toEqual(asStreamed(paged));
      expect(lines(batches).map((t) => JSON.parse(t) as LadderEvent)).toEqual(
        paged.map((t) => JSON.parse(t) as LadderEvent),
      );
      expect(await collect(copyEventPayloads(c, 'no-such-ladder'))).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('gives a range of the log as PgLadderStore.events, by COPY on a transaction and by pages without one, and says how far the log was recorded by an instant', async () => {
    const parsed = paged.map((t) => JSON.parse(t) as LadderEvent);
    const events = async (store: PgLadderStore, after: number, upTo: number) => {
      const all: LadderEvent[] = [];
      for await (const batch of store.events(LADDER, after, upTo)) all.push(...batch);
      return all;
    };
    const ladders = new Map();
    await db.transaction(async (manager) => {
      const byCopy = new PgLadderStore(sqlOf(manager), ladders);
      expect(await events(byCopy, 0, EVENTS)).toEqual(parsed);
      expect(await events(byCopy, 1234, 7777)).toEqual(parsed.slice(1234, 7777));
      expect(await events(byCopy, 10, 10)).toEqual([]);
      expect(await byCopy.lastPosition(LADDER)).toBe(EVENTS);
    });
    const byPages = new PgLadderStore({ query: (text, params) => db.query(text, params) }, ladders);
    expect(await events(byPages, 0, EVENTS)).toEqual(parsed);
    expect(await events(byPages, 999, 10_001)).toEqual(parsed.slice(999));

    // Recorded in two stretches: a day each.
    await db.query(
      `UPDATE event_store SET recorded_at = CASE WHEN seq <= 3000 THEN '2026-01-01T00:00:00Z'::timestamptz
         ELSE '2026-01-02T00:00:00Z'::timestamptz END WHERE ladder = $1`,
      [LADDER],
    );
    const recordedBy = (instant: string) => byPages.recordedBy(LADDER, new Date(instant));
    expect(await recordedBy('2025-12-31T23:59:59.999Z')).toBe(0);
    expect(await recordedBy('2026-01-01T00:00:00Z')).toBe(3000);
    expect(await recordedBy('2026-01-01T12:00:00Z')).toBe(3000);
    expect(await recordedBy('2026-01-02T00:00:00Z')).toBe(EVENTS);
    expect(await byPages.recordedBy('no-such-ladder', new Date())).toBe(0);
  });

  it('reads a ladder’s log inside a transaction, its own appends included, by COPY and by pages alike', async () => {
    const later = game(LADDER, EVENTS + 1);
    // An id with a quote: the COPY statement takes the ladder as a literal.
    const quoted = "o'brien";
    await db
      .transaction(async (manager) => {
        const tx = sqlOf(manager);
        expect(typeof tx.copyTo).toBe('function');
        await new EventStoreRepository(tx).appendEvents([
          { ladder: LADDER, seq: EVENTS + 1, event: later },
          { ladder: quoted, seq: 1, event: game(quoted, 1) },
        ]);
        const byCopy = await collect(ladderLog(tx, LADDER));
        const byPages = await collect(
          ladderLog({ query: (text, params) => tx.query(text, params) }, LADDER),
        );
        expect(lines(byCopy)).toEqual([...asStreamed(paged), JSON.stringify(later)]);
        expect(lines(byPages)).toEqual(lines(byCopy));
        expect(lines(await collect(ladderLog(tx, quoted)))).toEqual([
          JSON.stringify(game(quoted, 1)),
        ]);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    // Rolled back: outside the transaction the appends never happened.
    expect(lines(await collect(ladderLog(sql, LADDER)))).toEqual(asStreamed(paged));
  });

  it('unescapes what COPY escapes, and leaves a text without a backslash as it is', () => {
    expect(unescapeCopyText('{"a":"q\\\\"x"}\n')).toBe('{"a":"q\\"x"}\n');
    expect(unescapeCopyText('a\\tb\\nc\\\\n\n')).toBe('a\tb c\\n\n');
    const plain = '{"a":1}\n';
    expect(unescapeCopyText(plain)).toBe(plain);
  });
});
