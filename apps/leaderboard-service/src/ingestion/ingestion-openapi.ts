/** The OpenAPI security scheme of the game servers' routes (a bearer service token). */
export const INGESTION_TOKEN_SCHEME = 'serviceToken';

export const INGESTION_TOKEN_SCHEME_OBJECT = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'rk_<token id>_<secret>',
  description:
    'A game server’s service token, issued by `ranking token issue --service NAME --ladders A,B` and shown once; it may send and ask about games of its ladders only. It expires after 90 days unless issued with `--expires INSTANT` or `--no-expiry`; revoked by `ranking token revoke ID` from the next request on. Checked before the body is read.',
} as const;
