export * from './database-setup.js';
export * from './data-source.js';
export * from './migrations/index.js';
