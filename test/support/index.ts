export * from './environment.js';
export * from './kafka.js';
export * from './test-database.js';
export * from './wait-for.js';
export * from './service-process.js';
export * from './rating-scenario.js';
export * from './maintenance-scenario.js';
export * from './collect-text.js';
export * from './topic-reader.js';
export * from './http-probe.js';
export * from './json-lines.js';
<<<<<<< HEAD
export * from './redis-cluster.js';
=======
export * from './kafka-principals.js';
>>>>>>> kafka-sasl
