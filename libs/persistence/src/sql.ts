/** What the repositories need of a connection: a parameterized query returning rows. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}
