import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage } from 'node:http';
import { Metrics } from '../ops/metrics.js';

/** The API's version: every API route is under /v1 (Nest's URI versioning). */
export const API_VERSION = '1';
export const API_PREFIX = `/v${API_VERSION}`;

/** The API's areas before /v1: their old paths still answer, as aliases, for one release. */
const UNVERSIONED = /^\/(?:ladders|tournaments)(?:[/?]|$)/;

/** When the unversioned paths were deprecated (RFC 9745's Deprecation: a Unix time). */
export const DEPRECATED_SINCE = '@1796428800'; // 2026-12-05T00:00:00Z

/** Whether an unversioned path is one of the old areas' (answered as its /v1 path, deprecated). */
export const hasVersionedSuccessor = (path: string): boolean => UNVERSIONED.test(path);

/**
 * Fastify's rewriteUrl: an old API path (`/ladders/…`, `/tournaments/…`) is routed as its /v1
 * path. The probes, /ping, /docs and the page's own files have no version and stay as they are.
 */
export function versionedUrl(request: IncomingMessage): string {
  const url = request.url ?? '/';
  return UNVERSIONED.test(url) ? `${API_PREFIX}${url}` : url;
}

/**
 * Answers on an old path say that it is deprecated (RFC 9745 `Deprecation`) and where its
 * successor is (`Link: <…>; rel="successor-version"`), and are counted by route.
 */
export function markUnversionedAliases(app: NestFastifyApplication): void {
  const metrics = app.get(Metrics);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      if (request.originalUrl !== request.url) {
        void reply
          .header('Deprecation', DEPRECATED_SINCE)
          .header('Link', `<${request.url.split('?', 1)[0]}>; rel="successor-version"`);
        metrics.unversioned.inc({ route: request.routeOptions.url ?? 'unmatched' });
      }
      done();
    });
}
