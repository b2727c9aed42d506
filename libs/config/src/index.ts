export * from './environment.js';
export * from './ladders-file.js';
