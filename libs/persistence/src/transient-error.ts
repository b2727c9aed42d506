/**
 * Whether retrying a failed database transaction as it is can help: `transient` when the
 * database or the network is away, busy or not yet set up; `deterministic` when the input
 * itself makes it fail (a value PostgreSQL refuses, a constraint, a raised exception, a bug
 * in the fold), which only setting the message aside gets past.
 */
export function classifyFailure(error: unknown): 'transient' | 'deterministic' {
  return isTransient(error) ? 'transient' : 'deterministic';
}

/**
 * PostgreSQL classes that no message causes: connection (08), serialization and deadlock
 * (40), insufficient resources (53), lock not available (55P03), operator intervention (57),
 * system error (58), internal error (XX); and the ones a deployment causes and an operator
 * fixes: authorization (28), a missing database (3D), a missing table, column, function or
 * privilege (42, e.g. a service newer than its migrations); a write that reached a standby
 * (25006, read-only transaction: a connection made through the HA proxy in the second before
 * it saw a switchover, ADR 38). Dead-lettering every message during such a fault would lose
 * them all, so these wait.
 */
const TRANSIENT_SQLSTATE = /^(08|40|53|55P03|57|58|XX|28|3D|42|25006)/;
const TRANSIENT_NODE_CODES = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'];

export function isTransient(error: unknown): boolean {
  const e = error as {
    code?: unknown;
    retriable?: boolean;
    message?: string;
    driverError?: { code?: unknown };
  };
  if (e === null || typeof e !== 'object') return false;
  if (e.retriable === true) return true;
  const raw = e.driverError?.code ?? e.code;
  const code = typeof raw === 'string' ? raw : '';
  if (TRANSIENT_SQLSTATE.test(code)) return true;
  if (TRANSIENT_NODE_CODES.includes(code)) return true;
  return /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    e.message ?? '',
  );
}
