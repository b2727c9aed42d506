import pg from 'pg';

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
