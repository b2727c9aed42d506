import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrlFor, TEMPLATE_DATABASE } from './environment.js';

/** A fresh database per suite, copied from the migrated template: suites never see each other's rows. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ranking_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrlFor('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrlFor(name),
    drop: async () => {
      const client = new pg.Client({ connectionString: databaseUrlFor('postgres') });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
