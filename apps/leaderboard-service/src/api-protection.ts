import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { HttpException, HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { Environment } from '@ranking/config';
import { PROBE_PATHS } from '@ranking/operations';
import { isRedisAway, type RedisClient } from '@ranking/redis';
import { grantOf } from './ingestion/service-token-hook.js';
import { Metrics } from './ops/metrics.js';

/** Orchestrators and Prometheus poll these from a few addresses: never limited. */
const UNLIMITED = new Set<string>([...Object.values(PROBE_PATHS), '/ping']);

/**
 * The page and the Swagger UI at /docs load scripts only from here; Swagger UI writes inline
 * styles and draws icons from data: URLs. Plain HTTP stays plain (no upgrade-insecure-requests:
 * TLS, where there is any, ends at the proxy).
 */
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    imgSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
  },
};

/** An HttpException: Nest's error handler answers whatever a hook throws, as it does a route. */
const tooMany = (max: number, who: string, after: string) =>
  new HttpException(
    HttpException.createBody(
      `over ${max} requests a minute from this ${who}; retry in ${after}`,
      'Too Many Requests',
      HttpStatus.TOO_MANY_REQUESTS,
    ),
    HttpStatus.TOO_MANY_REQUESTS,
  );

/** What protectApi leaves to the token-holders' routes (guardTokenRoutes). */
export interface ApiProtection {
  /**
   * POST /v1/games' limit per token (INGEST_REQUESTS_PER_MINUTE), an onRequest hook to run
   * once the token is authenticated; null when that limit is off.
   */
  readonly perToken: onRequestAsyncHookHandler | null;
}

/**
 * The public API's protection, from the validated environment: security headers on every
 * answer (helmet), CORS for CORS_ORIGINS only (none by default), and RATE_LIMIT_PER_MINUTE
 * requests a minute per client, past which it answers 429 in the API's error shape with
 * Retry-After and counts it in `leaderboard_rate_limited_total`. A client is its address as
 * TRUST_PROXY decides it (X-Forwarded-For only from the proxies named there), an IPv6 address
 * counted by its /64 (a host may use any address of its network). The counts live in Redis
 * (one key per client and minute, under REDIS_KEY_PREFIX), so every replica enforces one limit
 * together. While Redis is away the per-client limit lets requests through: the public reads
 * stay up as far as PostgreSQL serves them (boards in Redis answer 503 anyway), and nothing is
 * written. The per-token limit of POST /v1/games (ADR 34, 42) fails closed instead: see
 * perTokenLimit.
 */
export async function protectApi(
  app: NestFastifyApplication,
  env: Environment,
  redis: RedisClient,
): Promise<ApiProtection> {
  await app.register(helmet, { contentSecurityPolicy: CONTENT_SECURITY_POLICY });
  const origins = env.CORS_ORIGINS.split(',').filter((origin) => origin !== '');
  if (origins.length > 0)
    await app.register(cors, { origin: origins, methods: ['GET', 'HEAD'], maxAge: 600 });
  if (env.RATE_LIMIT_PER_MINUTE === 0 && env.INGEST_REQUESTS_PER_MINUTE === 0)
    return { perToken: null };
  const metrics = app.get(Metrics);
  await app.register(rateLimit, {
    // Added below as hooks of the whole server rather than per route, so unknown paths (404s)
    // count too.
    global: false,
    timeWindow: 60_000,
    redis,
    nameSpace: `${env.REDIS_KEY_PREFIX}rate-limit:`,
    ipv6Subnet: 64,
    skipOnError: true,
    onExceeded: (request) =>
      metrics.rateLimited.inc({ route: request.routeOptions.url ?? 'unmatched' }),
  });
  const fastify = app.getHttpAdapter().getInstance();
  if (env.RATE_LIMIT_PER_MINUTE > 0)
    fastify.addHook(
      'onRequest',
      fastify.rateLimit({
        max: env.RATE_LIMIT_PER_MINUTE,
        allowList: (request) => UNLIMITED.has(request.url.split('?', 1)[0]!),
        errorResponseBuilder: (_request, context) => tooMany(context.max, 'client', context.after),
      }),
    );
  return {
    perToken:
      env.INGEST_REQUESTS_PER_MINUTE > 0
        ? perTokenLimit(fastify, env.INGEST_REQUESTS_PER_MINUTE, metrics)
        : null,
  };
}

/**
 * `max` requests a minute per token, counted by the token's id after it was authenticated: an
 * unknown token never reaches it (401 first, its client held by the per-client limit), and
 * `Bearer rk_…` and `bearer  rk_…` are one token, one budget. Counted in Redis under
 * REDIS_KEY_PREFIX, so every replica enforces one limit together. It fails closed: while Redis
 * is away a game server is answered 503 with Retry-After and nothing is sent, rather than its
 * limit lapsing; a game server retries, and no event is lost. A fault of another kind is a 500.
 *
 * Counted with the plugin's createRateLimit, not its rateLimit hook: every rateLimit hook of
 * the plugin shares one per-request "ran" mark, so a second one after the per-client hook was
 * skipped. (Its keys read `rate-limit:undefinedundefined-ingest:<token id>`: the plugin puts a
 * route in them that createRateLimit does not have.)
 */
function perTokenLimit(
  fastify: FastifyInstance,
  max: number,
  metrics: Metrics,
): onRequestAsyncHookHandler {
  const count = fastify.createRateLimit({
    max,
    timeWindow: 60_000,
    keyGenerator: (request) => `ingest:${grantOf(request).tokenId}`,
    skipOnError: false,
  });
  return async (request, reply) => {
    let counted: Awaited<ReturnType<typeof count>>;
    try {
      counted = await count(request);
    } catch (error) {
      if (!isRedisAway(error)) throw error;
      throw new ServiceUnavailableException(
        `the store of the request limits (Redis) is unavailable right now (${(error as Error).message}); nothing was sent; retry shortly`,
      );
    }
    if (counted.isAllowed || !counted.isExceeded) return;
    metrics.rateLimited.inc({ route: request.routeOptions.url ?? 'unmatched' });
    void reply.header('Retry-After', String(counted.ttlInSeconds));
    throw tooMany(max, 'token', `${counted.ttlInSeconds} seconds`);
  };
}
