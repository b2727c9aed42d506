// The typed client of the leaderboard API: openapi-fetch over the types openapi-typescript
// generates from the committed OpenAPI document (apps/leaderboard-service/openapi.json) into
// api-schema.ts at each build (`npm run client`; git-ignored: it is build output). Every /v1
// path, parameter and answer is typed from the document (the deprecated aliases are left out);
// an error's body is its problem document (RFC 9457).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './api-schema.js';

export type { components, operations, paths } from './api-schema.js';

/** An error answer of the API (RFC 9457), with the request's id. */
export type Problem = components['schemas']['Problem'];

export type RankingClient = Client<paths>;

/**
 * A client of the API at `baseUrl` (e.g. `http://127.0.0.1:3000`): `client.GET('/v1/ladders')`,
 * `client.GET('/v1/ladders/{ladder}/leaderboard', { params: { path: { ladder } } })`, … each
 * answering `{ data }` or `{ error }` (a `Problem`) with the raw `response`.
 */
export function createRankingClient(
  baseUrl: string,
  options: Omit<ClientOptions, 'baseUrl'> = {},
): RankingClient {
  return createClient<paths>({ ...options, baseUrl });
}
