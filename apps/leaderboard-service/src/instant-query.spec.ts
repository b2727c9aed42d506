import { BadRequestException } from '@nestjs/common';
import { instantOf } from './instant-query.js';
import { LeaderboardQuery } from './ladders/leaderboard.query.js';
import { PlayerQuery } from './players/player.query.js';
import { QueryValidationPipe } from './query-validation.pipe.js';

const query = (metatype: unknown) => ({ type: 'query' as const, metatype: metatype as never });

/** The 400's message for a query, or null when it passes. */
async function rejection(value: object, metatype: unknown): Promise<string | null> {
  const pipe = new QueryValidationPipe({ transform: true, whitelist: true });
  try {
    await pipe.transform(value, query(metatype));
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return JSON.stringify((error as BadRequestException).getResponse());
  }
}

describe('at: an instant of a query', () => {
  it.each([['2026-11-29T13:00:00Z'], ['2026-11-29T21:00:00.250+08:00'], ['2026-11-29t13:00:00z']])(
    'given %s, then both queries take it',
    async (at) => {
      expect(await rejection({ at }, LeaderboardQuery)).toBeNull();
      expect(await rejection({ at }, PlayerQuery)).toBeNull();
    },
  );

  it.each([
    ['2026-11-29T13:00:00', /at must be an RFC 3339 instant with an offset/],
    ['2026-02-30T13:00:00Z', /at must be an RFC 3339 instant/],
    ['2026-11-29', /at must be an RFC 3339 instant/],
    ['last tuesday', /at must be an RFC 3339 instant/],
    ['2026-11-29T21:00:00 08:00', /a '\+' in a query string must be sent as %2B/],
  ])('given %s, then a 400 saying what an instant is', async (at, message) => {
    expect(await rejection({ at }, LeaderboardQuery)).toMatch(message);
    expect(await rejection({ at }, PlayerQuery)).toMatch(message);
  });

  it('given an instant in the future, then a 400; the present and the past are instants', () => {
    const now = Date.UTC(2026, 10, 29, 13);
    expect(() => instantOf('2026-11-29T13:00:00.001Z', now)).toThrow(
      /at 2026-11-29T13:00:00.001Z is in the future \(now is 2026-11-29T13:00:00.000Z\)/,
    );
    expect(instantOf('2026-11-29T21:00:00+08:00', now).getTime()).toBe(now);
    expect(instantOf('2020-01-01T00:00:00Z', now).toISOString()).toBe('2020-01-01T00:00:00.000Z');
  });
});
