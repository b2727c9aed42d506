import { createHash } from 'node:crypto';

/** A strong entity tag of a body: the bytes' SHA-256, shortened (128 bits are plenty). */
export function entityTag(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether If-None-Match names `tag` (RFC 9110 13.1.2): `*`, or a list of tags compared weakly
 * (a `W/` prefix on either side does not matter for this header).
 */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (t: string) => (t.startsWith('W/') ? t.slice(2) : t);
  const wanted = opaque(tag);
  return header.split(',').some((candidate) => opaque(candidate.trim()) === wanted);
}
