import { type ArgumentsHost, Catch, HttpStatus } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { BoardsUnavailableError } from '@ranking/redis';

/** ioredis errors while the server is away (closed connection, retries exhausted, refused). */
const REDIS_AWAY =
  /Connection is closed|MaxRetriesPerRequest|ECONNREFUSED|Stream isn't writeable|ECONNRESET/;

/** Redis away or the boards being rebuilt: a clear 503 the client may retry; the rest as Nest does. */
@Catch()
export class UnavailableFilter extends BaseExceptionFilter {
  override catch(error: unknown, host: ArgumentsHost): void {
    const away =
      error instanceof BoardsUnavailableError ||
      (error instanceof Error && REDIS_AWAY.test(`${error.name} ${error.message}`));
    if (!away) return super.catch(error, host);
    const res = host.switchToHttp().getResponse<{
      status(code: number): { json(body: unknown): void };
      setHeader(name: string, value: string): void;
    }>();
    res.setHeader('Retry-After', '1');
    res.status(HttpStatus.SERVICE_UNAVAILABLE).json({
      statusCode: HttpStatus.SERVICE_UNAVAILABLE,
      error: 'Service Unavailable',
      message: `the leaderboards are unavailable right now (${(error as Error).message}); retry shortly`,
    });
  }
}
