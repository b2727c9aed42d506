/** What a valid token lets its service do: send and ask about games of these ladders only. */
export interface ServiceGrant {
  readonly tokenId: string;
  /** The game server the token was issued to (its receipts are its own). */
  readonly service: string;
  readonly ladders: readonly string[];
}

export const mayUseLadder = (grant: ServiceGrant, ladder: string): boolean =>
  grant.ladders.includes(ladder);
