import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';

const GUARDED = Symbol('ranking.checked-out-client-guard');

/**
 * node-postgres emits 'error' on a client whose connection breaks while no statement runs on
 * it, and the pool listens only while the client is idle in the pool. A client checked out for
 * a transaction sits between statements while the service folds: a database restart or a
 * terminated backend then raised an unhandled 'error' and took the whole service down. Each
 * client gets a listener of its own on its first checkout; the failure itself still surfaces,
 * as the transaction's next statement failing (retried by the caller), and the pool drops the
 * broken client when it comes back.
 */
export function guardCheckedOutClients(
  db: DataSource,
  report: (error: Error) => void = () => undefined,
): void {
  const pool = (db.driver as unknown as { master?: EventEmitter }).master;
  if (!pool) throw new Error('guardCheckedOutClients needs an initialised PostgreSQL data source');
  pool.on('acquire', (client: EventEmitter & { [GUARDED]?: true }) => {
    if (client[GUARDED]) return;
    client[GUARDED] = true;
    client.on('error', report);
  });
}
