import type { EntityManager } from 'typeorm';
import type { Sql } from './sql.js';

/** The repositories' view of a TypeORM transaction (or of the data source's manager). */
export const sqlOf = (manager: EntityManager): Sql => ({
  query: (text, params) => manager.query(text, params),
});
