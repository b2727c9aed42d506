import { Cluster, Redis } from 'ioredis';

/** A single Redis or a Redis Cluster: the board store works on either. */
export type RedisClient = Redis | Cluster;

/** Where a `redis+cluster://` URL points: its seed nodes, credentials and whether TLS is used. */
export interface ClusterAddress {
  readonly nodes: readonly { host: string; port: number }[];
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
}

const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/**
 * The cluster a `redis+cluster://[user[:password]@]host:port,host:port[/]` URL names (TLS:
 * `rediss+cluster://`), null for a URL of a single Redis. Throws on a malformed cluster URL.
 */
export function clusterAddress(url: string): ClusterAddress | null {
  const form = /^(rediss?)\+cluster:\/\/(?:([^@/\s]*)@)?([^@/\s]+)\/?$/.exec(url);
  if (!form) {
    if (/^rediss?\+cluster:/.test(url)) throw new Error('malformed redis+cluster:// URL');
    return null;
  }
  const [, scheme, credentials, hosts] = form;
  const nodes = hosts!.split(',').map((node) => {
    const hostPort = HOST_PORT.exec(node);
    const port = Number(hostPort?.[2]);
    if (!hostPort || port < 1 || port > 65535)
      throw new Error(`"${node}" is not a host:port of a cluster node`);
    return { host: hostPort[1]!.replace(/^\[|\]$/g, ''), port };
  });
  let username: string | undefined;
  let password: string | undefined;
  if (credentials) {
    const colon = credentials.indexOf(':');
    if (colon === -1) username = decodeURIComponent(credentials);
    else {
      username = decodeURIComponent(credentials.slice(0, colon)) || undefined;
      password = decodeURIComponent(credentials.slice(colon + 1));
    }
  }
  return { nodes, username, password, tls: scheme === 'rediss' };
}

const retryStrategy = (times: number) => Math.min(times * 200, 2000);

/**
 * An ioredis client for the URL: a `Cluster` for a `redis+cluster://` URL, else a `Redis`.
 * Commands fail fast while disconnected instead of queueing forever.
 */
export function redisClient(url: string, name = 'ranking'): RedisClient {
  const cluster = clusterAddress(url);
  if (cluster === null)
    return new Redis(url, {
      connectionName: name,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      retryStrategy,
    });
  return new Cluster(
    cluster.nodes.map((n) => ({ ...n })),
    {
      clusterRetryStrategy: retryStrategy,
      enableOfflineQueue: true,
      redisOptions: {
        connectionName: name,
        maxRetriesPerRequest: 2,
        username: cluster.username,
        password: cluster.password,
        ...(cluster.tls ? { tls: {} } : {}),
      },
    },
  );
}

/** The connection name a client was made with. */
export const connectionNameOf = (redis: RedisClient): string | undefined =>
  redis instanceof Cluster
    ? redis.options.redisOptions?.connectionName
    : redis.options.connectionName;

/**
 * A second connection like `redis` (a subscriber, say): a single Redis's duplicate, or a new
 * cluster client on the same nodes.
 */
export function duplicateClient(
  redis: RedisClient,
  options: {
    connectionName: string;
    autoResubscribe: boolean;
    maxRetriesPerRequest: number | null;
  },
): RedisClient {
  if (!(redis instanceof Cluster)) return redis.duplicate(options);
  return redis.duplicate(undefined, {
    ...redis.options,
    redisOptions: { ...redis.options.redisOptions, ...options },
  });
}

/** Every key under a prefix removed (tests): per master in a cluster, each key on its own slot. */
export async function unlinkPrefixed(redis: RedisClient, prefix: string): Promise<void> {
  if (!(redis instanceof Cluster)) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.unlink(...keys);
    return;
  }
  for (const node of redis.nodes('master'))
    for (const key of await node.keys(`${prefix}*`)) await node.unlink(key);
}
