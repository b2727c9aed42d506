import { entityTag, noneMatchHits } from '@ranking/operations';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { API_PREFIX } from './api-version.js';

/**
 * Cache-Control of the answers (ADR 30). A dated daily board never changes once published (a
 * rebuild writes the same rows): public for a day, not revalidated meanwhile. The newest daily
 * board is another board after the next 06:00: a minute, then revalidated by its ETag. What
 * is live may change any moment: stored, but revalidated every time (no-cache).
 */
export const CACHE_CONTROL = {
  datedBoard: 'public, max-age=86400, immutable',
  newestBoard: 'public, max-age=60',
  live: 'no-cache',
  /** The integrity review's answers name players under suspicion: no cache keeps them. */
  review: 'no-store',
} as const;

/** Where the integrity review's routes are (ADR 35): outside the versioned API. */
const REVIEW_API = '/review/api/';

// A cached daily page is one Buffer, answered many times: its tag is computed once.
const tags = new WeakMap<Buffer, string>();

const tagOf = (body: Buffer): string => {
  let tag = tags.get(body);
  if (tag === undefined) tags.set(body, (tag = entityTag(body)));
  return tag;
};

/**
 * Sets ETag and Cache-Control on the answer of a daily board's page; answers the body, or an
 * empty 304 when If-None-Match names the tag.
 */
export function validatedBody(
  reply: FastifyReply,
  body: Buffer,
  cacheControl: string,
  ifNoneMatch: string | undefined,
): Buffer | string {
  const tag = tagOf(body);
  void reply.header('ETag', tag).header('Cache-Control', cacheControl);
  if (!noneMatchHits(ifNoneMatch, tag)) return body;
  void reply.status(304);
  return '';
}

/**
 * Every API answer is `no-cache` unless its handler says otherwise (a daily board's page) or it
 * is a problem (`no-store`, the filter's): set before the handler runs, so a handler overrides it.
 * The review's answers are `no-store`, whatever they are.
 */
export function noCacheByDefault(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      if (request.url.startsWith(`${API_PREFIX}/`))
        void reply.header('Cache-Control', CACHE_CONTROL.live);
      else if (request.url.startsWith(REVIEW_API))
        void reply.header('Cache-Control', CACHE_CONTROL.review);
      done();
    });
}
