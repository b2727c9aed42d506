import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { dropDatabase } from '@ranking/persistence';
import pg from 'pg';
import { databaseUrlFor, TEMPLATE_DATABASE } from './environment.js';

/** A database of one suite's own, and how to drop it. */
export interface TestDatabase {
  readonly url: string;
  readonly drop: () => Promise<void>;
}

const freshName = (): string => `ranking_test_${randomBytes(6).toString('hex')}`;

/** A fresh database per suite, copied from the migrated template: suites never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = freshName();
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

const run = promisify(execFile);

/**
 * A fresh database on another server than the shared one (a test's private cluster), created
 * and migrated by the built `ranking setup`, as the template is in global setup (which made it
 * on the shared server only). `server`: any URL on that server.
 */
export async function createMigratedDatabase(server: string): Promise<TestDatabase> {
  const at = new URL(server);
  at.pathname = `/${freshName()}`;
  const url = at.toString();
  await run(process.execPath, ['bin/ranking.js', 'setup', '--skip-kafka'], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error' },
  });
  return { url, drop: () => dropDatabase(url) };
}

/** The same database as another login role (the shared server trusts 127.0.0.1: no password). */
export function urlAsRole(url: string, role: string, password?: string): string {
  const as = new URL(url);
  as.username = role;
  as.password = password === undefined ? '' : encodeURIComponent(password);
  return as.toString();
}
