import { DailyPageCache } from './daily-page-cache.js';

describe('DailyPageCache', () => {
  const head = { name: '2026-11-30', version: 'abc' };

  it('keys name the ladder, board, version, cursor and limit, so no two answers share one', () => {
    const keys = new Set([
      DailyPageCache.key('l', head, null, 100),
      DailyPageCache.key('l', head, null, 50),
      DailyPageCache.key('m', head, null, 100),
      DailyPageCache.key('l', { ...head, version: 'abd' }, null, 100),
      DailyPageCache.key('l', { ...head, name: '2026-12-01' }, null, 100),
      DailyPageCache.key('l', head, { member: 'p1', score: '-1500' }, 100),
      DailyPageCache.key('l', head, { member: 'p1', score: '-1501' }, 100),
      // Separators inside names cannot make two keys collide.
      DailyPageCache.key('l', head, { member: 'p1","-1', score: '500' }, 100),
    ]);
    expect(keys.size).toBe(8);
  });

  it('given a stored answer, when read with the same key, then the same bytes come back', () => {
    const cache = new DailyPageCache();
    const key = DailyPageCache.key('l', head, null, 100);
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, Buffer.from('{"rows":[]}'));
    expect(cache.get(key)?.toString()).toBe('{"rows":[]}');
  });
});
