import type { ServiceGrant, TokenScope } from '@ranking/ingestion';
import type { Sql } from './sql.js';

/** A token as operators list it (never its secret nor its digest). */
export interface ListedToken {
  readonly tokenId: string;
  readonly service: string;
  readonly ladders: readonly string[];
  readonly scopes: readonly TokenScope[];
  /** The operator who issued it (null: issued before this was recorded). */
  readonly issuedBy: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

interface GrantRow {
  token_id: string;
  service: string;
  ladders: string[];
  scopes: TokenScope[];
}

/** Game servers' bearer tokens in `service_tokens` (ADR 34), kept by digest. */
export class ServiceTokenRepository {
  constructor(private readonly sql: Sql) {}

  async issue(token: {
    tokenId: string;
    service: string;
    ladders: readonly string[];
    /** What it may do: ingest unless said. */
    scopes?: readonly TokenScope[];
    digest: Buffer;
    /** Null only by choice: `ranking token issue` sets a default (ADR 42). */
    expiresAt: Date | null;
    /** The operator who issued it. */
    issuedBy: string;
  }): Promise<void> {
    await this.sql.query(
      `INSERT INTO service_tokens (token_id, service, ladders, scopes, digest, expires_at, issued_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        token.tokenId,
        token.service,
        token.ladders,
        token.scopes ?? ['ingest'],
        token.digest,
        token.expiresAt,
        token.issuedBy,
      ],
    );
  }

  /**
   * The grant of a token, by its digest, if it is neither revoked nor expired (each request
   * asks, so a revocation holds from the next request on). Marks it used, at most once a minute.
   */
  async grantOf(digest: Buffer): Promise<ServiceGrant | null> {
    const rows = await this.sql.query<GrantRow>(
      `WITH valid AS (
         SELECT token_id, service, ladders, scopes, last_used_at FROM service_tokens
         WHERE digest = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       ), used AS (
         UPDATE service_tokens t SET last_used_at = now() FROM valid
         WHERE t.token_id = valid.token_id
           AND (valid.last_used_at IS NULL OR valid.last_used_at < now() - interval '1 minute')
       )
       SELECT token_id, service, ladders, scopes FROM valid`,
      [digest],
    );
    const row = rows[0];
    return row
      ? { tokenId: row.token_id, service: row.service, ladders: row.ladders, scopes: row.scopes }
      : null;
  }

  /** Revokes a token from now on; false when there is no such token or it was revoked already. */
  async revoke(tokenId: string): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE service_tokens SET revoked_at = now()
       WHERE token_id = $1 AND revoked_at IS NULL RETURNING token_id`,
      [tokenId],
    );
    return rows.length > 0;
  }

  async list(): Promise<ListedToken[]> {
    const rows = await this.sql.query<{
      token_id: string;
      service: string;
      ladders: string[];
      scopes: TokenScope[];
      issued_by: string | null;
      created_at: Date;
      expires_at: Date | null;
      revoked_at: Date | null;
      last_used_at: Date | null;
    }>(
      `SELECT token_id, service, ladders, scopes, issued_by, created_at, expires_at, revoked_at,
              last_used_at
       FROM service_tokens ORDER BY service, created_at, token_id`,
    );
    return rows.map((r) => ({
      tokenId: r.token_id,
      service: r.service,
      ladders: r.ladders,
      scopes: r.scopes,
      issuedBy: r.issued_by,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      revokedAt: r.revoked_at,
      lastUsedAt: r.last_used_at,
    }));
  }
}
