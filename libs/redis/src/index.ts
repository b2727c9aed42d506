export * from './redis-client.js';
