import { from as copyFromStdin } from 'pg-copy-streams';
import type { QueryRunner } from 'typeorm';

/** What node-postgres' client offers for a COPY stream. */
interface PgCopyClient {
  query<S extends NodeJS.WritableStream>(stream: S): S;
}

/**
 * `Sql.copyFrom` on a transaction's connection: the COPY data streams on the client the
 * transaction holds, so it commits or rolls back with the rest (pg-copy-streams).
 */
export function copyFromOn(
  runner: QueryRunner,
): (statement: string, data: string | Buffer) => Promise<void> {
  return async (statement, data) => {
    const client = (await runner.connect()) as PgCopyClient;
    const stream = client.query(copyFromStdin(statement));
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('finish', resolve);
      stream.end(data);
    });
  };
}
