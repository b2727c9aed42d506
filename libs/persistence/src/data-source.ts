import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';

/** A TypeORM data source on the URL's database, with the project's migrations (no synchronize). */
export function createDataSource(url: string, applicationName = 'ranking'): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    applicationName,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: ['error'],
  });
}

/** Creates the database if needed and runs pending migrations; returns the names it ran. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const ran = await dataSource.runMigrations({ transaction: 'each' });
  return ran.map((m) => m.name);
}
