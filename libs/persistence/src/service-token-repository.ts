import type { ServiceGrant, TokenScope } from '@ranking/ingestion';
import type { Sql } from './sql.js';

/** A token as operators list it (never its secret nor its digest). */
export interface ListedToken {
  readonly tokenId: string;
  readonly service: string;
  /** The producer an ingest token belongs to (null: none, or removed since). */
  readonly producer: string | null;
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
  producer: string | null;
  ladders: string[];
  scopes: TokenScope[];
}

/** Game servers' bearer tokens in `service_tokens` (ADR 34), kept by digest. */
export class ServiceTokenRepository {
  constructor(private readonly sql: Sql) {}

  async issue(token: {
    tokenId: string;
    service: string;
    /** The producer it belongs to: an `ingest` token needs one (its namespace). */
    producer?: string | null;
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
      `INSERT INTO service_tokens
         (token_id, service, ladders, scopes, digest, expires_at, issued_by, producer)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        token.tokenId,
        token.service,
        token.ladders,
        token.scopes ?? ['ingest'],
        token.digest,
        token.expiresAt,
        token.issuedBy,
        token.producer ?? null,
      ],
    );
  }

  /**
   * The grant of a token, by its digest, if it is neither revoked nor expired (each request
   * asks, so a revocation holds from the next request on). Marks it used, at most once a minute.
   * A producer's token may use the ladders both it and its producer have now: narrowing a
   * producer narrows its tokens at once.
   */
  async grantOf(digest: Buffer): Promise<ServiceGrant | null> {
    const rows = await this.sql.query<GrantRow>(
      `WITH valid AS (
         SELECT t.token_id, t.service, t.producer, t.scopes, t.last_used_at,
                CASE WHEN t.producer IS NULL THEN t.ladders
                     ELSE ARRAY(SELECT unnest(t.ladders) INTERSECT SELECT unnest(p.ladders) ORDER BY 1)
                END AS ladders
         FROM service_tokens t LEFT JOIN producers p ON p.name = t.producer
         WHERE t.digest = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
       ), used AS (
         UPDATE service_tokens t SET last_used_at = now() FROM valid
         WHERE t.token_id = valid.token_id
           AND (valid.last_used_at IS NULL OR valid.last_used_at < now() - interval '1 minute')
       )
       SELECT token_id, service, producer, ladders, scopes FROM valid`,
      [digest],
    );
    const row = rows[0];
    return row
      ? {
          tokenId: row.token_id,
          service: row.service,
          producer: row.producer,
          ladders: row.ladders,
          scopes: row.scopes,
        }
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
      producer: string | null;
      ladders: string[];
      scopes: TokenScope[];
      issued_by: string | null;
      created_at: Date;
      expires_at: Date | null;
      revoked_at: Date | null;
      last_used_at: Date | null;
    }>(
      `SELECT token_id, service, producer, ladders, scopes, issued_by, created_at, expires_at,
              revoked_at,
              last_used_at
       FROM service_tokens ORDER BY service, created_at, token_id`,
    );
    return rows.map((r) => ({
      tokenId: r.token_id,
      service: r.service,
      producer: r.producer,
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
