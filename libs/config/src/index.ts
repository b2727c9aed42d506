export * from './environment.js';
export * from './ladders-file.js';
export * from './tournaments-file.js';
export * from './ladder-variant.js';
