import { guardCheckedOutClients } from './checked-out-client-guard.js';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';
import { QueryLogger } from './query-logger.js';

/**
 * A TypeORM data source on the URL's database, with the project's migrations (no synchronize).
 * `role`: every connection acts as that role (`SET ROLE` at connection start), as `ranking setup`
 * runs the migrations as the owner role.
 */
export function createDataSource(
  url: string,
  applicationName = 'ranking',
  options: { readonly role?: string } = {},
): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    applicationName,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new QueryLogger(),
    ...(options.role === undefined ? {} : { extra: { options: `-c role=${options.role}` } }),
  });
}

/** Creates the database if needed and runs pending migrations; returns the names it ran. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const ran = await dataSource.runMigrations({ transaction: 'each' });
  return ran.map((m) => m.name);
}

/**
 * A service's connected data source; refuses (and closes) a database with pending migrations,
 * which `ranking setup` runs: services never migrate on their own. A connection that breaks
 * under a transaction fails that transaction, never the process (guardCheckedOutClients).
 */
export async function openServiceDataSource(
  url: string,
  applicationName: string,
  logger?: { warn(message: string): void },
): Promise<DataSource> {
  const db = createDataSource(url, applicationName);
  await db.initialize();
  guardCheckedOutClients(db, (error) =>
    logger?.warn(
      `a PostgreSQL connection broke while checked out (its transaction fails and is retried): ${error.message}`,
    ),
  );
  if (await db.showMigrations()) {
    await db.destroy();
    throw new Error('the database has pending migrations; run `npx ranking setup` first');
  }
  return db;
}
