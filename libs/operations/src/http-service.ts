import { type DynamicModule, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Environment } from '@ranking/config';
import type { FastifyHttpOptions } from 'fastify';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpLimits } from './http-limits.js';
import { JsonLogger } from './json-logger.js';
import { PROBE_PATHS, SERVICE_PORTS, type ServiceName } from './probe-paths.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { ServiceMetrics } from './service-metrics.js';

/** Paths polled by machines every few seconds: their access lines are debug, not info. */
const POLLED = new Set<string>([...Object.values(PROBE_PATHS), '/ping']);

/** A shutdown that takes longer than this is cut short (orchestrators kill at 10 s or later). */
export const SHUTDOWN_DEADLINE_MS = 9_000;

export interface HttpServiceOptions {
  readonly name: ServiceName;
  readonly env: Environment;
  readonly module: DynamicModule;
  /** Fastify options of this service over httpLimits' (e.g. a longer maxParamLength). */
  readonly http?: FastifyHttpOptions<Server>;
  /** Pipes, filters, the OpenAPI document: whatever the service adds before it listens. */
  readonly configure?: (app: NestFastifyApplication) => void | Promise<void>;
}

/**
 * Starts a service the one way all of them start: Fastify with the body and time limits of
 * httpLimits, JSON logs at LOG_LEVEL, request times in `http_request_duration_seconds`,
 * listening on HOST and the service's port. Every request has an id (the caller's X-Request-Id
 * when acceptable, else a new UUID: `request.id`), echoed in X-Request-Id and written in its
 * access line (method, path, status, duration; info, the probes' debug). On SIGTERM or SIGINT readiness turns 503, the
 * work under way finishes, connections close (Nest's shutdown hooks) and the process exits 0,
 * or 1 if that took longer than SHUTDOWN_DEADLINE_MS.
 */
export async function startHttpService(
  options: HttpServiceOptions,
): Promise<NestFastifyApplication> {
  const { name, env } = options;
  const app = await NestFactory.create<NestFastifyApplication>(
    options.module,
    new FastifyAdapter({
      ...httpLimits(env),
      genReqId: (request: IncomingMessage) => requestIdOf(request.headers[REQUEST_ID_HEADER]),
      ...options.http,
    }),
    {
      logger: new JsonLogger(env.LOG_LEVEL),
      abortOnError: false,
    },
  );
  const logger = new Logger(name);
  const metrics = app.get(ServiceMetrics);
  const access = new Logger('http');
  const fastify = app.getHttpAdapter().getInstance();
  // First of the hooks: an answer refused by a later one (a 429) carries the id too.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1e3,
    );
    // The path as the client sent it (before an alias was rewritten), without the query: it
    // may carry a player id, and the route is what an operator searches by.
    const path = request.originalUrl.split('?', 1)[0]!;
    const line = {
      method: request.method,
      path,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
      requestId: request.id,
    };
    const message = `${request.method} ${path} ${reply.statusCode}`;
    if (POLLED.has(path)) access.debug(message, line);
    else access.log(message, line);
    done();
  });
  await options.configure?.(app);
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      logger.log(`${signal}: shutting down`, { signal });
      setTimeout(() => {
        logger.error(`shutdown took over ${SHUTDOWN_DEADLINE_MS} ms: exiting`);
        process.exit(1);
      }, SHUTDOWN_DEADLINE_MS).unref();
    });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.listen(env[SERVICE_PORTS[name].variable], env.HOST);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://${env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST}:${port}/`;
  logger.log(`listening on ${url}`, { url, port });
  return app;
}
