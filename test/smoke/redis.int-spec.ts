import { redisClient } from '@ranking/redis';
import { uniqueName } from '../support/kafka.js';
import { TEST_ENV } from '../support/environment.js';

describe('Redis (real server)', () => {
  const redis = redisClient(TEST_ENV.redisUrl, 'smoke');
  const key = uniqueName('smoke:board');
  afterAll(async () => {
    await redis.del(key);
    redis.disconnect();
  });

  it('given scores in a sorted set, when read back by rank, then order and scores round-trip', async () => {
    await redis.zadd(key, 1824, 'alice', 1976, 'bob', 1600, 'carol');
    expect(await redis.zrevrange(key, 0, -1, 'WITHSCORES')).toEqual([
      'bob',
      '1976',
      'alice',
      '1824',
      'carol',
      '1600',
    ]);
    expect(await redis.zrevrank(key, 'alice')).toBe(1);
  });
});
