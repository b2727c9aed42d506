import type { EntityManager } from 'typeorm';
import { copyFromOn } from './copy-from.js';
import { copyToOn } from './copy-to.js';
import type { Sql } from './sql.js';

/**
 * The repositories' view of a TypeORM transaction (or of the data source's manager). Only a
 * transaction's manager holds one client, so only it offers `copyFrom` and `copyTo`.
 */
export const sqlOf = (manager: EntityManager): Sql => ({
  query: (text, params) => manager.query(text, params),
  ...(manager.queryRunner
    ? { copyFrom: copyFromOn(manager.queryRunner), copyTo: copyToOn(manager.queryRunner) }
    : {}),
});
