import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Environment } from '@ranking/config';

/** The game servers' route, whose limits differ from the read API's. */
export const SUBMISSION_PATH = '/v1/games';

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
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url === SUBMISSION_PATH && methods.includes('POST'))
        route.bodyLimit = env.INGEST_BODY_LIMIT_BYTES;
    });
}
