import type { Sql } from '@ranking/persistence';
import type { EntityManager } from 'typeorm';

/** The repositories' view of a TypeORM transaction. */
export const sqlOf = (manager: EntityManager): Sql => ({
  query: (text, params) => manager.query(text, params),
});
