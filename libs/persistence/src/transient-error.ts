/**
 * Whether a failure is worth retrying as it is (the database or broker is away for a while),
 * as opposed to a fault that retrying cannot fix.
 */
export function isTransient(error: unknown): boolean {
  const e = error as {
    code?: string;
    retriable?: boolean;
    message?: string;
    driverError?: { code?: string };
  };
  if (e.retriable === true) return true;
  const code = e.driverError?.code ?? e.code ?? '';
  // PostgreSQL: connection exceptions (08), admin shutdown (57P), serialization/deadlock (40),
  // insufficient resources (53); Node: socket-level failures.
  if (/^(08|57P|40|53)/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code))
    return true;
  return /Connection terminated|connection is closed|Client has encountered a connection error/i.test(
    e.message ?? '',
  );
}
