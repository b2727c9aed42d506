import { createDataSource, OffsetStore, preparedSqlOf } from '@ranking/persistence';
import { createTestDatabase } from '@ranking/testing';
import type { DataSource } from 'typeorm';

// Statements through preparedSqlOf are prepared once per connection and then run by name,
// with the same rows and errors as before.

describe('preparedSqlOf (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDataSource(database.url, 'prepared-sql');
    await db.initialize();
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('given a statement run three times in a transaction, then it was prepared once and gave the same rows', async () => {
    const prepared = await db.transaction(async (manager) => {
      const sql = preparedSqlOf(manager);
      const offsets = new OffsetStore(sql);
      await offsets.saveMany('c', 't', new Map([[0, 41n]]));
      await offsets.saveMany('c', 't', new Map([[0, 42n]]));
      await offsets.saveMany('c', 't', new Map([[1, 7n]]));
      expect(await offsets.all('c', 't')).toEqual(
        new Map([
          [0, 42n],
          [1, 7n],
        ]),
      );
      return sql.query<{ statement: string }>(
        "SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO consumer_offsets%'",
      );
    });
    expect(prepared).toHaveLength(1);
  });

  it('given a failing statement, then its PostgreSQL error comes through with its code', async () => {
    await expect(
      db.transaction((manager) => preparedSqlOf(manager).query('SELECT 1/0')),
    ).rejects.toMatchObject({ code: '22012' });
  });

  it('refuses a manager outside a transaction', () => {
    expect(() => preparedSqlOf(db.manager)).toThrow(/transaction/);
  });
});
