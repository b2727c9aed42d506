export * from './event-id.js';
export * from './event-status.js';
export * from './event-traces.js';
export * from './refusal-receipts.js';
export * from './service-grant.js';
export * from './service-token.js';
export * from './submission.js';
