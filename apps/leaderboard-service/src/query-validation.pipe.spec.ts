import { BadRequestException } from '@nestjs/common';
import { LeaderboardQuery } from './ladders/leaderboard.query.js';
import { PlayerQuery } from './players/player.query.js';
import { QueryValidationPipe } from './query-validation.pipe.js';

const query = (metatype: unknown) => ({ type: 'query' as const, metatype: metatype as never });

describe('QueryValidationPipe', () => {
  const pipe = new QueryValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
  });

  it('given a valid query, then it is validated once and the same frozen DTO is given each time', async () => {
    const first = await pipe.transform({ limit: '100' }, query(LeaderboardQuery));
    expect(first).toBeInstanceOf(LeaderboardQuery);
    expect(first).toEqual({ limit: 100 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(await pipe.transform({ limit: '100' }, query(LeaderboardQuery))).toBe(first);
    expect(await pipe.transform({ limit: '99' }, query(LeaderboardQuery))).toEqual({ limit: 99 });
  });

  it('given an invalid query, then every request gets the same 400 with the reasons', async () => {
    for (let i = 0; i < 2; i += 1) {
      const error: unknown = await pipe
        .transform({ limit: '500' }, query(LeaderboardQuery))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestException);
      expect((error as BadRequestException).getStatus()).toBe(400);
      expect(JSON.stringify((error as BadRequestException).getResponse())).toMatch(
        /limit must be at most 200/,
      );
    }
  });

  it('keeps the outcomes of different DTOs apart for the same query', async () => {
    await expect(pipe.transform({ around: '3' }, query(PlayerQuery))).resolves.toEqual({
      around: 3,
    });
    await expect(pipe.transform({ around: '3' }, query(LeaderboardQuery))).rejects.toThrow(
      BadRequestException,
    );
  });

  it('validates bodies and params as the plain ValidationPipe does, without remembering', async () => {
    await expect(
      pipe.transform({ limit: '5' }, { type: 'body', metatype: LeaderboardQuery }),
    ).resolves.toEqual({ limit: 5 });
    await expect(pipe.transform('x', { type: 'param', metatype: String })).resolves.toBe('x');
  });

  it('given a flood of distinct queries, then what it remembers stays bounded, and a very long query is not remembered', async () => {
    const flooded = new QueryValidationPipe({ transform: true, whitelist: true });
    for (let i = 0; i < 10_000; i += 1)
      await flooded.transform(
        { limit: '5', pad: `${'x'.repeat(1_000)}${i}` },
        query(LeaderboardQuery),
      );
    expect(flooded.rememberedWeight).toBeGreaterThan(0);
    expect(flooded.rememberedWeight).toBeLessThanOrEqual(4_000_000);

    const long = { limit: 'many', pad: 'y'.repeat(5_000) };
    const first: unknown = await pipe
      .transform(long, query(LeaderboardQuery))
      .catch((e: unknown) => e);
    const second: unknown = await pipe
      .transform(long, query(LeaderboardQuery))
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(BadRequestException);
    expect(second).toBeInstanceOf(BadRequestException);
    expect(second).not.toBe(first);
  });
});
