export * from './redis-client.js';
export * from './board-store.js';
export * from './redis-away.js';
