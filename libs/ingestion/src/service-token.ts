import { createHash, randomBytes } from 'node:crypto';

/**
 * A game server's bearer token: `rk_<token id>_<secret>`. The id (12 hex digits) names the
 * token in listings and logs; the secret is 32 random bytes (base64url). Only the SHA-256
 * digest of the whole token is stored: a slow hash protects guessable passwords, and 256
 * random bits are not guessable, so one index probe by digest checks a token.
 */
export const SERVICE_TOKEN = /^rk_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export interface IssuedToken {
  readonly tokenId: string;
  /** Shown once, to the operator who issued it; never stored. */
  readonly token: string;
  readonly digest: Buffer;
}

/** The digest a token is stored and looked up by. */
export const tokenDigest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** A new token with a random id and secret. */
export function issueServiceToken(): IssuedToken {
  const tokenId = randomBytes(6).toString('hex');
  const token = `rk_${tokenId}_${randomBytes(32).toString('base64url')}`;
  return { tokenId, token, digest: tokenDigest(token) };
}

/** Why a request's credentials are refused before any lookup, or the token they carry. */
export type BearerCredentials =
  { readonly ok: true; readonly token: string } | { readonly ok: false; readonly detail: string };

/** The token of an `Authorization: Bearer …` header (RFC 6750), checked for shape only. */
export function bearerCredentials(header: string | undefined): BearerCredentials {
  if (header === undefined || header === '')
    return { ok: false, detail: 'this route needs an Authorization: Bearer token' };
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  if (!match) return { ok: false, detail: 'the Authorization header is not of the Bearer scheme' };
  const token = match[1]!;
  if (!SERVICE_TOKEN.test(token))
    return { ok: false, detail: 'the bearer token is not a ranking service token' };
  return { ok: true, token };
}
