import { to as copyToStdout } from 'pg-copy-streams';
import type { QueryRunner } from 'typeorm';

/** What node-postgres' client offers for a COPY stream. */
interface PgCopyClient {
  query<S extends NodeJS.ReadableStream>(stream: S): S;
}

/**
 * `Sql.copyTo` on a transaction's connection: `COPY … TO STDOUT` streamed on the client the
 * transaction holds, so it reads what the transaction wrote so far (pg-copy-streams).
 */
export function copyToOn(runner: QueryRunner): (statement: string) => AsyncIterable<Buffer> {
  return async function* (statement) {
    const client = (await runner.connect()) as PgCopyClient;
    yield* client.query(copyToStdout(statement)) as AsyncIterable<Buffer>;
  };
}

/**
 * A text as an SQL string literal, for the statements that take no parameters (COPY).
 * PostgreSQL reads a backslash literally in a standard string (standard_conforming_strings,
 * on since 9.1), so only quotes are doubled.
 */
export const sqlLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;
