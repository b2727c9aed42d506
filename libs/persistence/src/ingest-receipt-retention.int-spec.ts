import { createDataSource, IngestReceiptRepository, sqlOf } from '@ranking/persistence';
import { createTestDatabase, type TestDatabase } from '@ranking/testing';
import pg from 'pg';
import type { DataSource } from 'typeorm';

const OLD = 2_000_000;
const YOUNG = 1_000;
const BATCH = 50_000;
const RETENTION_DAYS = 30;

/**
 * The receipts' retention (ADR 42) against a real, migrated PostgreSQL: millions of receipts
 * past it are deleted a bounded batch a statement, each batch committed on its own, and only
 * the receipts within it remain.
 */
describe('IngestReceiptRepository.purgeOlderThan (real PostgreSQL)', () => {
  let database: TestDatabase;
  let db: DataSource;
  let other: pg.Client;
  let receipts: IngestReceiptRepository;

  const count = async (client: pg.Client, where = 'true'): Promise<number> =>
    Number(
      (await client.query(`SELECT count(*) AS n FROM ingest_receipts WHERE ${where}`)).rows[0].n,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'receipt-retention');
    await db.initialize();
    receipts = new IngestReceiptRepository(sqlOf(db.manager));
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });

  afterAll(async () => {
    await other.end();
    await db.destroy();
    await database.drop();
  });

  it('Given 2,000,000 receipts past the retention and 1,000 within it, When purged, Then the old ones go in batches of at most the batch size, each committed on its own, and the young ones stay', async () => {
    // One statement each: 2,000,000 receipts a second apart from 31 days ago backwards, and
    // 1,000 from 29 days ago on (refused ones among them: a refusal's receipt goes too).
    await db.query(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status, received_at)
       SELECT 'old:' || g, 'gomoku', 'igame-gomoku', sha256(g::text::bytea),
              CASE WHEN g % 10 = 0 THEN 'rejected' ELSE 'accepted' END,
              now() - interval '31 days' - g * interval '1 second'
       FROM generate_series(1, $1::int) g`,
      [OLD],
    );
    await db.query(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status, received_at)
       SELECT 'young:' || g, 'gomoku', 'igame-gomoku', sha256(g::text::bytea), 'accepted',
              now() - interval '29 days' + g * interval '1 minute'
       FROM generate_series(1, $1::int) g`,
      [YOUNG],
    );
    await db.query('ANALYZE ingest_receipts');

    const batches: number[] = [];
    const seenByOthers: number[] = [];
    const deleted = await receipts.purgeOlderThan(RETENTION_DAYS, BATCH, async (n) => {
      batches.push(n);
      // Another connection sees each batch gone as soon as it is: each is its own transaction.
      if (batches.length <= 3) seenByOthers.push(await count(other));
      return true;
    });

    expect(deleted).toBe(OLD);
    expect(Math.max(...batches)).toBe(BATCH);
    expect(batches).toEqual([...Array<number>(OLD / BATCH).fill(BATCH), 0]);
    expect(seenByOthers).toEqual([1, 2, 3].map((k) => OLD + YOUNG - k * BATCH));
    expect(await count(other)).toBe(YOUNG);
    expect(await count(other, "event_id LIKE 'young:%'")).toBe(YOUNG);
  }, 600_000);

  it('Given a receipt another transaction holds (a request refreshing it), When purged, Then the purge neither waits for it nor takes it, and the next purge does', async () => {
    await db.query(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status, received_at)
       SELECT 'held:' || g, 'gomoku', 'igame-gomoku', sha256(g::text::bytea), 'rejected',
              now() - interval '40 days' - g * interval '1 second'
       FROM generate_series(1, 1000) g`,
    );
    await other.query('BEGIN');
    try {
      // The oldest of them, held as a request's upsert holds the row it refreshes.
      await other.query("SELECT 1 FROM ingest_receipts WHERE event_id = 'held:1000' FOR UPDATE");
      const batches: number[] = [];
      const deleted = await receipts.purgeOlderThan(RETENTION_DAYS, 300, (n) => {
        batches.push(n);
        return true;
      });
      expect(deleted).toBe(999);
      expect(batches).toEqual([300, 300, 300, 99]);
    } finally {
      await other.query('ROLLBACK');
    }
    expect(await count(other, "event_id LIKE 'held:%'")).toBe(1);
    expect(await receipts.purgeOlderThan(RETENTION_DAYS, 300)).toBe(1);
    expect(await count(other)).toBe(YOUNG);
  });

  it('Given a caller that stops after the first batch (the service shutting down), Then the purge stops there and the rest waits', async () => {
    await db.query(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status, received_at)
       SELECT 'later:' || g, 'gomoku', 'igame-gomoku', sha256(g::text::bytea), 'accepted',
              now() - interval '35 days'
       FROM generate_series(1, 500) g`,
    );
    expect(await receipts.purgeOlderThan(RETENTION_DAYS, 200, () => false)).toBe(200);
    expect(await count(other, "event_id LIKE 'later:%'")).toBe(300);
    expect(await receipts.purgeOlderThan(RETENTION_DAYS, 200)).toBe(300);
  });
});
