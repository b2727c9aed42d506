import { STATUS_CODES } from 'node:http';

/** The media type of a problem document (RFC 9457). */
export const PROBLEM_JSON = 'application/problem+json';

/** One thing wrong with a request: which input, where, and why in words. */
export interface ProblemError {
  /** What is wrong, in words (the message a validator gave). */
  readonly detail: string;
  /** The input's name, when one input is at fault (a query parameter, a body field's path). */
  readonly name?: string;
  /** Where the input is: `query`, `path`, `header` or `body`. */
  readonly in?: 'query' | 'path' | 'header' | 'body';
  /** An event refused: its rejection code (CONTRACT.md "Rejection codes"). */
  readonly code?: string;
  /** An event refused: its id, when it has a string one. */
  readonly id?: string;
}

/**
 * An RFC 9457 problem document as this system answers it. `type` is `about:blank` (the status
 * says what kind of problem it is, `title` is its phrase), `detail` says what happened to this
 * request, `instance` is the path asked, `requestId` the X-Request-Id the answer carries (and
 * every log line of the request), `errors` what was wrong with a request answered 400.
 */
export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance: string;
  readonly requestId: string;
  readonly errors?: readonly ProblemError[];
}

export interface ProblemFacts {
  readonly status: number;
  readonly detail: string;
  /** The path asked (a query string is cut off: it may carry a player id and is not the resource). */
  readonly path: string;
  readonly requestId: string;
  readonly errors?: readonly ProblemError[];
}

/**
 * The one builder of the problem documents every service answers: a status outside 400..599 is
 * a 500 (a problem is never a success), and a 400 always lists what was wrong (at least the
 * detail itself).
 */
export function problemDocument(facts: ProblemFacts): ProblemDocument {
  const status =
    Number.isInteger(facts.status) && facts.status >= 400 && facts.status <= 599
      ? facts.status
      : 500;
  const errors =
    facts.errors && facts.errors.length > 0
      ? facts.errors
      : status === 400
        ? [{ detail: facts.detail }]
        : undefined;
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: facts.detail,
    instance: facts.path.split('?', 1)[0]!,
    requestId: facts.requestId,
    ...(errors ? { errors } : {}),
  };
}
