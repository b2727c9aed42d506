export * from './seeded-random.js';
export * from './event-generator.js';
export * from './tournament-generator.js';
