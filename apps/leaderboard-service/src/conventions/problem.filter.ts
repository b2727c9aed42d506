import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import { PROBE_PATHS, PROBLEM_JSON, type ProblemError, problemDocument } from '@ranking/operations';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidRequest } from './invalid-request.js';
import { retryAfterSeconds, unavailable } from './unavailable.js';

/**
 * The probes answer in terminus' shape, which names each check (`error.redis.status`): they are
 * not the API, and orchestrators, dashboards and ADR 12 read that shape.
 */
const PROBES = new Set<string>(Object.values(PROBE_PATHS));

interface Facts {
  readonly status: number;
  readonly detail: string;
  readonly errors?: readonly ProblemError[];
}

/** What an HttpException says: its message (a list joined), and a list as the 400's errors. */
function httpFacts(error: HttpException): Facts {
  const status = error.getStatus();
  if (error instanceof InvalidRequest)
    return { status, detail: error.message, errors: error.errors };
  const body = error.getResponse();
  const message: unknown =
    typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? error.message);
  if (Array.isArray(message)) {
    const details = message.map((m) => (typeof m === 'string' ? m : JSON.stringify(m)));
    return { status, detail: details.join('; '), errors: details.map((detail) => ({ detail })) };
  }
  return { status, detail: typeof message === 'string' ? message : error.message };
}

/**
 * The service's one exception filter: every error, from a route, a pipe, a Fastify hook (429)
 * or the router (404, 413), answered as an RFC 9457 problem document built by problemDocument,
 * carrying the request's id. Redis away and its kin are a 503 with Retry-After; what is not an
 * HttpException is a fault of ours: a 500 that says nothing of its cause to the client, and
 * logs it with the request id.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (error instanceof HttpException && PROBES.has(request.url.split('?', 1)[0]!)) {
      void reply
        .status(error.getStatus())
        .header('Cache-Control', 'no-store')
        .send(error.getResponse());
      return;
    }
    // A fault after the answer went out is still logged (facts does), but not answered.
    const facts = this.facts(error, request);
    if (reply.sent) return;
    const problem = problemDocument({
      ...facts,
      path: request.originalUrl,
      requestId: request.id,
    });
    if (problem.status === 503) void reply.header('Retry-After', String(retryAfterSeconds(error)));
    void reply
      .status(problem.status)
      .header('Content-Type', `${PROBLEM_JSON}; charset=utf-8`)
      // An error is about this moment: no cache keeps it (a 404 is heuristically cacheable).
      .header('Cache-Control', 'no-store')
      .send(JSON.stringify(problem));
  }

  private facts(error: unknown, request: FastifyRequest): Facts {
    const reason = unavailable(error);
    if (reason !== null) return { status: 503, detail: reason };
    if (error instanceof HttpException) return httpFacts(error);
    this.logger.error(
      `${request.method} ${request.originalUrl.split('?', 1)[0]}: ${String(error)}`,
      {
        requestId: request.id,
        error: error instanceof Error ? error.stack : String(error),
      },
    );
    return {
      status: 500,
      detail: `the service failed to answer; the request id ${request.id} names the failure in its log`,
    };
  }
}
