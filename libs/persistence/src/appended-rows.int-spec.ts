import {
  type AppendColumn,
  appendRows,
  createDataSource,
  preparedSqlOf,
  type Sql,
  sqlOf,
} from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// appendRows writes by COPY on a transaction's own connection and by one INSERT elsewhere:
// both must store exactly the same values, and refuse the same texts.

const COLUMNS: readonly AppendColumn[] = [
  ['name', 'text'],
  ['n', 'bigint'],
  ['x', 'float8'],
  ['doc', 'json'],
];

describe('appendRows (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'appended-rows');
    await db.initialize();
    await db.query('CREATE TABLE appended (name text, n bigint, x float8, doc json)');
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const rows = [
    [
      'tab\there, newline\nthere, return\r, backslash \\ and \\N',
      1,
      0.1 + 0.2,
      '{"a":"\\u0000\\ud800"}',
    ],
    ['ünïcødé 排名 🎲', 9007199254740991, -1e-300, '[1,"x\\ty"]'],
    [null, null, null, null],
    ['\\N', 0, Number.NaN, 'null'],
    ['', -5, Number.POSITIVE_INFINITY, '{}'],
  ] as const;
  const stored = () =>
    db.query<{ name: string | null; n: string | null; x: number | null; doc: string | null }[]>(
      'SELECT name, n, x, doc::text AS doc FROM appended ORDER BY ctid',
    );
  const viaCopy = (work: (sql: Sql) => Promise<unknown>) =>
    db.transaction((manager) => work(preparedSqlOf(manager)));
  const viaInsert = (work: (sql: Sql) => Promise<unknown>) =>
    db.transaction((manager) => work(sqlOf(manager)));

  it('given texts with tabs, newlines, backslashes, nulls and non-finite numbers, then COPY stores what the INSERT stores', async () => {
    await viaCopy((sql) => appendRows(sql, 'appended', COLUMNS, rows));
    const copied = await stored();
    await db.query('TRUNCATE appended');
    await viaInsert((sql) => appendRows(sql, 'appended', COLUMNS, rows));
    const inserted = await stored();
    await db.query('TRUNCATE appended');

    expect(copied).toEqual(inserted);
    expect(copied.map((r) => r.name)).toEqual(rows.map((r) => r[0]));
    expect(copied.map((r) => r.n)).toEqual(rows.map((r) => (r[1] === null ? null : String(r[1]))));
    // JSON had no NaN or Infinity: such a number is stored as null, as before.
    expect(copied.map((r) => r.x)).toEqual([0.1 + 0.2, -1e-300, null, null, null]);
    expect(copied.map((r) => r.doc)).toEqual(rows.map((r) => r[3]));
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('given %s in a text, then both ways fail the statement and store nothing', async (_, text) => {
    for (const run of [viaCopy, viaInsert])
      await expect(
        run((sql) => appendRows(sql, 'appended', COLUMNS, [[text, 1, 1, '{}']])),
      ).rejects.toThrow(/cannot store/);
    expect(await db.query('SELECT count(*)::int AS n FROM appended')).toEqual([{ n: 0 }]);
  });

  it("given a value the column refuses, then COPY fails with PostgreSQL's error code and the pool's connections still work", async () => {
    await expect(
      viaCopy((sql) => appendRows(sql, 'appended', COLUMNS, [['x', 1, 1, '{not json']])),
    ).rejects.toMatchObject({ code: '22P02' });
    await viaCopy((sql) => appendRows(sql, 'appended', COLUMNS, [['y', 2, 2, '{}']]));
    expect(await stored()).toEqual([{ name: 'y', n: '2', x: 2, doc: '{}' }]);
  });
});
