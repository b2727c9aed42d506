/**
 * What a token may do: `ingest` (game servers: POST /v1/games, GET /v1/events/:id) or `review`
 * (support staff: the integrity routes and page). A token holds the scopes it was issued.
 */
export const TOKEN_SCOPES = ['ingest', 'review'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What a valid token lets its holder do, and on which ladders only. */
export interface ServiceGrant {
  readonly tokenId: string;
  /** The game server or team the token was issued to. */
  readonly service: string;
  /**
   * The producer an `ingest` token belongs to (CONTRACT.md "Transport", Producers): its events'
   * ids begin with `<producer>:`, and its receipts are the producer's. Null for other tokens.
   */
  readonly producer: string | null;
  /** For a producer's token, the ladders both the token and the producer may use. */
  readonly ladders: readonly string[];
  readonly scopes: readonly TokenScope[];
}

export const mayUseLadder = (grant: ServiceGrant, ladder: string): boolean =>
  grant.ladders.includes(ladder);
