/**
 * The database URL with PostgreSQL's statement_timeout for every connection opened from it
 * (node-postgres sends a URL's `statement_timeout` as a start-up parameter, so it holds from
 * the connection's first statement); one the URL already names is replaced.
 */
export function statementTimeoutUrl(url: string, ms: number): string {
  const parsed = new URL(url);
  parsed.searchParams.set('statement_timeout', String(ms));
  return parsed.toString();
}
