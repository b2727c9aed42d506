import { randomUUID } from 'node:crypto';

/** The header a request id comes in and goes out in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An id a caller may choose: 1 to 128 letters, digits and `._:~-` (a UUID, a trace id, a
 * ULID). Anything else (longer, spaces, quotes, control characters, two headers joined by a
 * comma) could forge or break a log line, and is replaced.
 */
const ACCEPTED = /^[A-Za-z0-9._:~-]{1,128}$/;

/** Whether a header's value is accepted as the request's id. */
export function isAcceptedRequestId(value: unknown): value is string {
  return typeof value === 'string' && ACCEPTED.test(value);
}

/** The request's id: the caller's X-Request-Id when accepted, else a new UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  return isAcceptedRequestId(header) ? header : randomUUID();
}
