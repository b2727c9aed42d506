import { Cluster, Redis } from 'ioredis';
import { clusterAddress, redisClient } from './redis-client.js';
import { isRedisAway } from './redis-away.js';

describe('redis client', () => {
  it('a redis:// URL is a single Redis', () => {
    expect(clusterAddress('redis://127.0.0.1:6379')).toBeNull();
    expect(clusterAddress('rediss://user:pw@host:6380/2')).toBeNull();
  });

  it('a redis+cluster:// URL names the seed nodes, credentials and TLS', () => {
    expect(clusterAddress('redis+cluster://127.0.0.1:7000,127.0.0.1:7001,[::1]:7002/')).toEqual({
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(clusterAddress('rediss+cluster://app:p%40ss@redis-0.redis:6379')).toEqual({
      nodes: [{ host: 'redis-0.redis', port: 6379 }],
      username: 'app',
      password: 'p@ss',
      tls: true,
    });
    expect(clusterAddress('redis+cluster://:secret@h:1')).toMatchObject({
      username: undefined,
      password: 'secret',
    });
  });

  it.each(['redis+cluster://', 'redis+cluster://h', 'redis+cluster://h:0', 'redis+cluster://h:1,'])(
    'a malformed cluster URL (%s) is refused',
    (url) => {
      expect(() => clusterAddress(url)).toThrow();
    },
  );

  it('makes a Cluster client for a cluster URL and a Redis client otherwise', () => {
    const cluster = redisClient('redis+cluster://127.0.0.1:1,127.0.0.1:2', 't');
    const single = redisClient('redis://127.0.0.1:1', 't');
    for (const client of [cluster, single]) {
      client.on('error', () => undefined);
      client.disconnect();
    }
    expect(cluster).toBeInstanceOf(Cluster);
    expect(single).toBeInstanceOf(Redis);
  });

  it("a cluster's errors while nodes are away count as Redis away; a command's own do not", () => {
    expect(isRedisAway(new Error('CLUSTERDOWN The cluster is down'))).toBe(true);
    expect(isRedisAway(new Error('Failed to refresh slots cache.'))).toBe(true);
    expect(isRedisAway(new Error('None of startup nodes is available'))).toBe(true);
    expect(isRedisAway(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).toBe(
      false,
    );
  });
});
