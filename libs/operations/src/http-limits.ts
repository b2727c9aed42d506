import type { Environment } from '@ranking/config';
import type { FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';

/**
 * The limits every service's HTTP server keeps, from the environment: the largest body it
 * reads (413 past it), how long a client may take to send a request (408 and the connection
 * closed past it: a slow client holds no socket), and whose X-Forwarded-For names the client.
 */
export function httpLimits(env: Environment): FastifyHttpOptions<Server> {
  const timeout = env.HTTP_REQUEST_TIMEOUT_MS;
  return {
    bodyLimit: env.HTTP_BODY_LIMIT_BYTES,
    requestTimeout: timeout,
    trustProxy: trustProxy(env.TRUST_PROXY),
    http: {
      // Node's headers timeout (60 s) may not exceed the request timeout.
      headersTimeout: timeout,
      // Node looks for overdue requests this often (30 s by default, coarser than the limit).
      connectionsCheckingInterval: Math.min(1_000, timeout),
    },
  };
}

/** TRUST_PROXY as Fastify takes it: a boolean, or the proxies' addresses and CIDR ranges. */
export function trustProxy(value: string): boolean | string {
  return value === 'true' || value === 'false' ? value === 'true' : value;
}
