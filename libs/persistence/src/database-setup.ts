import pg from 'pg';

/** The database a postgres:// URL names. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/.test(name))
    throw new Error(`DATABASE_URL names no usable database ("${name}")`);
  return name;
}

/** Creates the URL's database when it does not exist yet (connecting to the server's `postgres` database). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    await client.query(`CREATE DATABASE "${name}"`);
    return true;
  } catch (error) {
    // Two processes racing to create it: the loser finds it there.
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}

/** Drops a database (tests clean up the per-suite databases they made). */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
