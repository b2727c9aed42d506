import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { onRequestHookHandler, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import { isSubmissionRoute } from './ingestion-limits.js';
import { type ServiceTokenHook, tokenScopeOf } from './service-token-hook.js';

type OnRequest = onRequestHookHandler | onRequestAsyncHookHandler;

/**
 * What a token holder is told is about this request and this token: no cache, shared or
 * private, keeps it (a 200 of GET /v1/events/:id as much as a refusal).
 */
const noStore: onRequestHookHandler = (_request, reply, done) => {
  void reply.header('Cache-Control', 'no-store');
  done();
};

const hooksOf = (route: RouteOptions): OnRequest[] =>
  route.onRequest === undefined
    ? []
    : Array.isArray(route.onRequest)
      ? [...(route.onRequest as OnRequest[])]
      : [route.onRequest];

/**
 * The token-holders' routes (the controllers with NeedsScope: POST /v1/games, GET
 * /v1/events/:id, /review/api/*, and the HEAD routes Fastify adds to the GETs) get onRequest
 * hooks of their own. A route's hooks run after the server's (request id, the per-client limit)
 * and before Fastify reads the body, in this order:
 * - Cache-Control: no-store, on every answer of these routes;
 * - the token authenticated and its scope checked (401, 403): an anonymous body is never
 *   parsed, whatever its size or syntax;
 * - on POST /v1/games, the limit per token (`perToken`: by the token's id, so only a token
 *   that exists is counted, and once whatever the spelling of its Authorization header).
 * Added as Nest registers the routes: call it before the app starts.
 */
export function guardTokenRoutes(
  app: NestFastifyApplication,
  tokens: ServiceTokenHook,
  perToken: onRequestAsyncHookHandler | null,
): void {
  const fastify = app.getHttpAdapter().getInstance();
  // Every request has the property from the start (one object shape for V8).
  fastify.decorateRequest('grant', null);
  fastify.addHook('onRoute', (route) => {
    const scope = tokenScopeOf(route.config);
    if (scope === undefined) return;
    const authenticate: onRequestAsyncHookHandler = (request, reply) =>
      tokens.authenticate(request, reply, scope);
    route.onRequest = [
      ...hooksOf(route),
      noStore,
      authenticate,
      ...(perToken !== null && isSubmissionRoute(route) ? [perToken] : []),
    ];
  });
}
