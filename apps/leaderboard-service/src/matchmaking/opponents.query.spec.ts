import { BadRequestException } from '@nestjs/common';
import { QueryValidationPipe } from '../query-validation.pipe.js';
import { OpponentsQuery } from './opponents.query.js';

const pipe = new QueryValidationPipe({
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
});
const validate = (query: Record<string, string>) =>
  pipe.transform(query, { type: 'query', metatype: OpponentsQuery });

/** The reasons of the 400 for a query. */
const reasons = async (query: Record<string, string>): Promise<string> => {
  const error: unknown = await validate(query).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BadRequestException);
  return JSON.stringify((error as BadRequestException).getResponse());
};

describe('OpponentsQuery', () => {
  it('given no limit, or one from 1 to 100, then it is taken (a number)', async () => {
    await expect(validate({})).resolves.toEqual({});
    await expect(validate({ limit: '1' })).resolves.toEqual({ limit: 1 });
    await expect(validate({ limit: '100' })).resolves.toEqual({ limit: 100 });
  });

  it.each([
    ['0', /limit must be at least 1/],
    ['101', /limit must be at most 100/],
    ['ten', /limit must be a whole number/],
    ['2.5', /limit must be a whole number/],
  ])('given limit=%s, then 400: %p', async (limit, message) => {
    expect(await reasons({ limit })).toMatch(message);
  });

  it('given another parameter, then 400 naming it', async () => {
    expect(await reasons({ limit: '5', around: '3' })).toMatch(/property around should not exist/);
  });
});
