export * from './events.js';
export * from './topics.js';
export * from './rejection-codes.js';
export * from './period-key.js';
export * from './instant.js';
export * from './event-validator.js';
export * from './blank-line.js';
