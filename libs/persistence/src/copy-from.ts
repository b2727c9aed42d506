import { from as copyFromStdin } from 'pg-copy-streams';
import type { QueryRunner } from 'typeorm';

/** What node-postgres' client offers for a COPY stream. */
interface PgCopyClient {
  query<S extends NodeJS.WritableStream>(stream: S): S;
}

/** COPY's text format escapes these four (a tab and a newline separate fields and rows). */
const COPY_SPECIAL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

/** A text as a field of COPY's text format. */
export const copyTextField = (text: string): string =>
  text.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]!);

/**
 * `Sql.copyFrom` on a transaction's connection: the COPY data streams on the client the
 * transaction holds, so it commits or rolls back with the rest (pg-copy-streams).
 */
export function copyFromOn(
  runner: QueryRunner,
): (statement: string, data: string) => Promise<void> {
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
