export * from './kafka-client.js';
export * from './topic-setup.js';
