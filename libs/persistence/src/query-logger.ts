import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's log lines through Nest's logger (the services' JSON lines). A failed query is
 * logged at debug with its text only (parameters may be large or personal): its caller fails
 * and says so, with the error, where it is handled.
 */
export class QueryLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('PostgreSQL');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    this.logger.debug(`query failed: ${error instanceof Error ? error.message : error}`, {
      query: query.length > 500 ? `${query.slice(0, 500)}…` : query,
    });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms)`, { query: query.slice(0, 500) });
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
