import { Redis } from 'ioredis';

/** An ioredis client for the URL; commands fail fast while disconnected instead of queueing forever. */
export function redisClient(url: string, name = 'ranking'): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}
