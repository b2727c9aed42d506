export * from './probe-paths.js';
export * from './json-logger.js';
