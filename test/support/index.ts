export * from './environment.js';
export * from './kafka.js';
export * from './test-database.js';
export * from './wait-for.js';
export * from './service-process.js';
export * from './rating-scenario.js';
export * from './maintenance-scenario.js';
export * from './collect-text.js';
