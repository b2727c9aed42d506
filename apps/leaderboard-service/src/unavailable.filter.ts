import { type ArgumentsHost, Catch, type HttpServer, HttpStatus } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { BoardsUnavailableError, isRedisAway } from '@ranking/redis';

/** Redis away or the boards being rebuilt: a clear 503 the client may retry; the rest as Nest does. */
@Catch()
export class UnavailableFilter extends BaseExceptionFilter {
  constructor(private readonly http: HttpServer) {
    super(http);
  }

  override catch(error: unknown, host: ArgumentsHost): void {
    const away = error instanceof BoardsUnavailableError || isRedisAway(error);
    if (!away) return super.catch(error, host);
    const res: unknown = host.switchToHttp().getResponse();
    this.http.setHeader(res, 'Retry-After', '1');
    this.http.reply(
      res,
      {
        statusCode: HttpStatus.SERVICE_UNAVAILABLE,
        error: 'Service Unavailable',
        message: `the leaderboards are unavailable right now (${(error as Error).message}); retry shortly`,
      },
      HttpStatus.SERVICE_UNAVAILABLE,
    );
  }
}
