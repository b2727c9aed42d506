import { createHash } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { HttpException, HttpStatus } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { Environment } from '@ranking/config';
import { PROBE_PATHS } from '@ranking/operations';
import type { RedisClient } from '@ranking/redis';
import { SUBMISSION_PATH } from './ingestion/ingestion-limits.js';
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

/**
 * The public API's protection, from the validated environment: security headers on every
 * answer (helmet), CORS for CORS_ORIGINS only (none by default), and RATE_LIMIT_PER_MINUTE
 * requests a minute per client, past which it answers 429 in the API's error shape with
 * Retry-After and counts it in `leaderboard_rate_limited_total`. A client is its address as
 * TRUST_PROXY decides it (X-Forwarded-For only from the proxies named there), an IPv6 address
 * counted by its /64 (a host may use any address of its network). The counts live in Redis
 * (one key per client and minute, under REDIS_KEY_PREFIX), so every replica enforces one limit
 * together; while Redis is away requests are let through (the API answers 503 then anyway).
 * POST /v1/games is also limited per token, to INGEST_REQUESTS_PER_MINUTE (ADR 34).
 */
export async function protectApi(
  app: NestFastifyApplication,
  env: Environment,
  redis: RedisClient,
): Promise<void> {
  await app.register(helmet, { contentSecurityPolicy: CONTENT_SECURITY_POLICY });
  const origins = env.CORS_ORIGINS.split(',').filter((origin) => origin !== '');
  if (origins.length > 0)
    await app.register(cors, { origin: origins, methods: ['GET', 'HEAD'], maxAge: 600 });
  if (env.RATE_LIMIT_PER_MINUTE === 0 && env.INGEST_REQUESTS_PER_MINUTE === 0) return;
  const metrics = app.get(Metrics);
  const tooMany = (max: number, who: string, after: string) =>
    // An HttpException: Nest's error handler answers whatever a hook throws, as it does a route.
    new HttpException(
      HttpException.createBody(
        `over ${max} requests a minute from this ${who}; retry in ${after}`,
        'Too Many Requests',
        HttpStatus.TOO_MANY_REQUESTS,
      ),
      HttpStatus.TOO_MANY_REQUESTS,
    );
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
  if (env.INGEST_REQUESTS_PER_MINUTE > 0)
    fastify.addHook(
      'onRequest',
      fastify.rateLimit({
        max: env.INGEST_REQUESTS_PER_MINUTE,
        allowList: (request) => !isSubmission(request),
        // By the token presented (its digest: no secret in Redis), before it is checked: an
        // unknown token is refused 401, and its client stays within its own limit (above).
        keyGenerator: (request) => `ingest:${submitterKey(request)}`,
        errorResponseBuilder: (_request, context) => tooMany(context.max, 'token', context.after),
      }),
    );
}

/** POST /v1/games: limited per token as well as per client. */
const isSubmission = (request: FastifyRequest): boolean =>
  request.method === 'POST' && request.url.split('?', 1)[0] === SUBMISSION_PATH;

const submitterKey = (request: FastifyRequest): string => {
  const header = request.headers.authorization;
  return header === undefined
    ? `ip:${request.ip}`
    : createHash('sha256').update(header).digest('base64url');
};
