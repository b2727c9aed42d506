/** What the repositories need of a connection: a parameterized query returning rows. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `COPY … FROM STDIN` with `data` (rows in the format the statement names), where the
   * connection offers it (a transaction's own client); repositories fall back to INSERT without it.
   */
  copyFrom?(statement: string, data: string | Buffer): Promise<void>;
  /** Streams `COPY … TO STDOUT` on the same connection (and so the same transaction), where offered. */
  copyTo?(statement: string): AsyncIterable<Buffer>;
}
