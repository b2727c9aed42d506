/**
 * What a token may do: `ingest` (game servers: POST /v1/games, GET /v1/events/:id) or `review`
 * (support staff: the integrity routes and page). A token holds the scopes it was issued.
 */
export const TOKEN_SCOPES = ['ingest', 'review'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What a valid token lets its holder do, and on which ladders only. */
export interface ServiceGrant {
  readonly tokenId: string;
  /** The game server or team the token was issued to (its receipts are its own). */
  readonly service: string;
  readonly ladders: readonly string[];
  readonly scopes: readonly TokenScope[];
}

export const mayUseLadder = (grant: ServiceGrant, ladder: string): boolean =>
  grant.ladders.includes(ladder);
