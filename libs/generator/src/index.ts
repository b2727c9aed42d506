export * from './seeded-random.js';
export * from './event-generator.js';
