export * from './seeded-random.js';
export * from './event-generator.js';
export * from './tournament-generator.js';
export * from './win-trading-planter.js';
