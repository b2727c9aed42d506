import pg from 'pg';
import {
  applyDatabaseGrants,
  ensureDatabaseRoles,
  type GrantsReport,
  handOverToOwner,
  type RolesReport,
} from './database-access.js';
import { type LoginRole, OWNER_ROLE } from './database-roles.js';
import { createDataSource, migrate } from './data-source.js';

/** The database a postgres:// URL names. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/.test(name))
    throw new Error(`DATABASE_URL names no usable database ("${name}")`);
  return name;
}

/** Runs `work` on a connection to the server's `postgres` database (where databases are made and dropped). */
async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the URL's database when it does not exist yet; true when it made it. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  return onServer(url, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    } catch (error) {
      // Two processes racing to create it: the loser finds it there.
      if ((error as { code?: string }).code === '42P04') return false;
      throw error;
    }
  });
}

/** Drops a database (tests and benchmarks clean up the databases they made). */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await onServer(url, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** What `setUpDatabase` did. */
export interface DatabaseSetupReport {
  readonly created: boolean;
  readonly roles: RolesReport;
  /** Relations another role owned, now the owner role's. */
  readonly handedOver: readonly string[];
  readonly migrations: readonly string[];
  readonly grants: GrantsReport;
}

/**
 * What `ranking setup` does in PostgreSQL, as a superuser (ADR 40): creates the database if
 * missing, the roles of database-roles.ts (passwords where given), gives the owner role the
 * schema and its tables, runs pending migrations as the owner (so whatever they create is its),
 * then makes every role's privileges those of TABLE_GRANTS. Setups of one database run one at
 * a time (an advisory lock held throughout).
 */
export async function setUpDatabase(
  url: string,
  passwords: Readonly<Partial<Record<LoginRole, string>>>,
): Promise<DatabaseSetupReport> {
  const created = await ensureDatabase(url);
  const roles = await onServer(url, (client) => ensureDatabaseRoles(client, passwords));
  const client = new pg.Client({ connectionString: url, application_name: 'ranking-setup' });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('ranking-setup:database'))");
    const handedOver = await handOverToOwner(client);
    const db = createDataSource(url, 'ranking-setup', { role: OWNER_ROLE });
    await db.initialize();
    let migrations: string[];
    try {
      migrations = await migrate(db);
    } finally {
      await db.destroy();
    }
    const grants = await applyDatabaseGrants(client, databaseName(url));
    return { created, roles, handedOver, migrations, grants };
  } finally {
    // Ending the session releases the lock.
    await client.end();
  }
}
