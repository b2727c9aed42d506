/** Injection tokens of the leaderboard service. */
export const ENVIRONMENT = Symbol('environment');
export const LADDERS = Symbol('ladders');
export const DATA_SOURCE = Symbol('data-source');
export const REDIS = Symbol('redis');
export const KAFKA = Symbol('kafka');
