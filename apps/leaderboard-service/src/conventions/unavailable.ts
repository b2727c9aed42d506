import { isKafkaError } from '@ranking/kafka';
import { BoardsUnavailableError, isRedisAway } from '@ranking/redis';
import { BuildsBusyError } from '../boards/build-gate.js';
import { ReviewBusyError, ReviewTimeoutError } from '../review/review-pool.js';

/** PostgreSQL's code for a statement it cancelled (API_STATEMENT_TIMEOUT_MS passed). */
const QUERY_CANCELED = '57014';

/** Whether a query failed because PostgreSQL cancelled it (TypeORM keeps the driver's code). */
const cancelled = (error: unknown): boolean => {
  const failure = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return (failure?.driverError?.code ?? failure?.code) === QUERY_CANCELED;
};

/**
 * Why the answer is a 503 the client may retry shortly, or null when the error is not one of
 * those: Redis away, the boards being rebuilt, every build slot for boards as of an instant
 * taken, a query past its statement timeout, or the review's workers busy or too slow.
 */
export function unavailable(error: unknown): string | null {
  if (error instanceof BoardsUnavailableError || isRedisAway(error))
    return `the leaderboards are unavailable right now (${(error as Error).message}); retry shortly`;
  if (error instanceof BuildsBusyError)
    return `too many boards as of an instant are being built right now (${error.message})`;
  if (isKafkaError(error))
    return `the broker is unavailable right now (${(error as Error).message}); nothing was sent; retry shortly`;
  if (error instanceof ReviewBusyError)
    return `the integrity review's workers are busy (${error.message})`;
  if (error instanceof ReviewTimeoutError) return `${error.message}; retry later`;
  if (cancelled(error))
    return 'the query took longer than this service allows (API_STATEMENT_TIMEOUT_MS); retry shortly';
  return null;
}

/** The seconds a 503's Retry-After names: the error's own estimate where it has one, else 1. */
export function retryAfterSeconds(error: unknown): number {
  return error instanceof ReviewBusyError ? error.retryAfterSeconds : 1;
}
