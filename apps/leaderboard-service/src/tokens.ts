/** Injection tokens of the leaderboard service. */
export const ENVIRONMENT = Symbol('environment');
export const LADDERS = Symbol('ladders');
export const DATA_SOURCE = Symbol('data-source');
export const REDIS = Symbol('redis');
export const KAFKA = Symbol('kafka');
/** PostgreSQL for the API's queries: its own pool, each statement cut at API_STATEMENT_TIMEOUT_MS. */
export const API_DATA_SOURCE = Symbol('api-data-source');
/** The standings as the API reads them (player search), on API_DATA_SOURCE. */
export const API_STANDINGS = Symbol('api-standings');
