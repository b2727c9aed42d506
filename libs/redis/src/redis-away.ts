/**
 * ioredis errors while the server is away (closed connection, retries exhausted, refused), and
 * a cluster's while its nodes are away or its slots move (failover, a node down).
 */
const REDIS_AWAY = new RegExp(
  [
    'Connection is closed',
    'MaxRetriesPerRequest',
    'ECONNREFUSED',
    "Stream isn't writeable",
    'ECONNRESET',
    'CLUSTERDOWN',
    'TRYAGAIN',
    'ClusterAllFailedError',
    'Failed to refresh slots cache',
    'None of startup nodes is available',
    'Too many Cluster redirections',
    'Cluster is disconnect',
    'Node is disconnected',
  ].join('|'),
);

/** Whether an error says Redis is away for now (worth retrying), not that a command is wrong. */
export const isRedisAway = (error: unknown): boolean =>
  error instanceof Error && REDIS_AWAY.test(`${error.name} ${error.message}`);
