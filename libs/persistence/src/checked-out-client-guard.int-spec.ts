import { createTestDatabase, waitFor } from '@ranking/testing';
import type { DataSource } from 'typeorm';
import { createDataSource, openServiceDataSource } from './data-source.js';

/** A backend terminated under a transaction, as `pg_terminate_backend` or a restart does it. */
describe('a connection that breaks while checked out (real PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    admin = createDataSource(database.url, 'guard-admin');
    await admin.initialize();
  });
  afterAll(async () => {
    await admin.destroy();
    await database.drop();
  });

  it('fails the transaction and warns, never the process, and the next transaction works', async () => {
    const warnings: string[] = [];
    const db = await openServiceDataSource(database.url, 'guard-test', {
      warn: (message) => warnings.push(message),
    });
    try {
      const outcome = db.transaction(async (manager) => {
        const [own] = await manager.query<[{ pid: number }]>('SELECT pg_backend_pid() AS pid');
        // Idle between statements, as while the service folds a batch.
        await admin.query('SELECT pg_terminate_backend($1)', [own.pid]);
        await waitFor(() => warnings.length > 0, { timeout: 10_000, what: 'the warning' });
        await manager.query('SELECT 1');
      });
      await expect(outcome).rejects.toThrow(/terminat|not queryable|released/i);
      expect(warnings[0]).toContain('broke while checked out');
      expect(await db.query('SELECT 41 + 1 AS n')).toEqual([{ n: 42 }]);
    } finally {
      await db.destroy();
    }
  });
});
