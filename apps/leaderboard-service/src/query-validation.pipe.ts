import {
  type ArgumentMetadata,
  HttpException,
  Injectable,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/** Distinct query strings remembered; clients repeat a handful (`?limit=100`, none at all). */
const REMEMBERED = 10_000;

type Outcome = { readonly value: unknown } | { readonly error: HttpException };

/**
 * The ValidationPipe, remembering its outcome per query DTO and query. Validating a query is a
 * pure function of the two, and class-transformer plus class-validator cost more than the rest
 * of a cached answer, so each distinct query is validated once. The validated DTO is frozen, as
 * it is shared by every request with that query; so is a rejection. Bodies and params go
 * through as usual.
 */
@Injectable()
export class QueryValidationPipe extends ValidationPipe {
  private readonly outcomes = new LRUCache<string, Outcome>({ max: REMEMBERED });
  private readonly classIds = new Map<unknown, number>();

  constructor(options: ValidationPipeOptions) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'query' || metadata.metatype === undefined)
      return super.transform(value, metadata);
    const key = `${this.classId(metadata.metatype)} ${JSON.stringify(value)}`;
    let outcome = this.outcomes.get(key);
    if (outcome === undefined) {
      try {
        outcome = { value: Object.freeze(await super.transform(value, metadata)) };
      } catch (error) {
        if (!(error instanceof HttpException)) throw error;
        outcome = { error };
      }
      this.outcomes.set(key, outcome);
    }
    // The same exception again: filters only read its status and body.
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  private classId(metatype: unknown): number {
    let id = this.classIds.get(metatype);
    if (id === undefined) this.classIds.set(metatype, (id = this.classIds.size));
    return id;
  }
}
