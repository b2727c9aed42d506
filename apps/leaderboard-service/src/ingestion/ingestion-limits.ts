import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Environment } from '@ranking/config';
import type { RouteOptions } from 'fastify';

/** The game servers' route, whose limits differ from the read API's. */
export const SUBMISSION_PATH = '/v1/games';

/** Whether Fastify's route (as an onRoute hook sees it) is POST /v1/games. */
export function isSubmissionRoute(route: Pick<RouteOptions, 'url' | 'method'>): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return route.url === SUBMISSION_PATH && methods.includes('POST');
}

/**
 * POST /v1/games reads bodies up to INGEST_BODY_LIMIT_BYTES (a batch of events); every other
 * route keeps HTTP_BODY_LIMIT_BYTES. Fastify's onRoute hook sets it as Nest registers the
 * route, so it must be added before the app starts.
 */
export function limitSubmissionBodies(app: NestFastifyApplication, env: Environment): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      if (isSubmissionRoute(route)) route.bodyLimit = env.INGEST_BODY_LIMIT_BYTES;
    });
}
