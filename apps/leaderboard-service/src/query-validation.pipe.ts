import {
  type ArgumentMetadata,
  HttpException,
  Injectable,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/**
 * What the remembered outcomes may weigh, in characters of their keys plus a fixed allowance
 * per entry for the DTO or the error: some 10 MB at most, whatever clients send. Clients
 * repeat a handful of queries (`?limit=100`, none at all); a flood of distinct ones only
 * pushes the oldest out.
 */
const REMEMBERED_WEIGHT = 4_000_000;
const ENTRY_WEIGHT = 400;
/** A query longer than this is validated every time and not remembered. */
const LONGEST_REMEMBERED = 2_000;

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
  private readonly outcomes = new LRUCache<string, Outcome>({
    maxSize: REMEMBERED_WEIGHT,
    sizeCalculation: (_outcome, key) => key.length + ENTRY_WEIGHT,
  });
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
      if (key.length <= LONGEST_REMEMBERED) this.outcomes.set(key, outcome);
    }
    // The same exception again: filters only read its status and body.
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** What the remembered outcomes weigh now (at most REMEMBERED_WEIGHT). */
  get rememberedWeight(): number {
    return this.outcomes.calculatedSize;
  }

  private classId(metatype: unknown): number {
    let id = this.classIds.get(metatype);
    if (id === undefined) this.classIds.set(metatype, (id = this.classIds.size));
    return id;
  }
}
