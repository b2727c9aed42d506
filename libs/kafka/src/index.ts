export * from './kafka-client.js';
export * from './topic-setup.js';
export * from './outbox-relay-loop.js';
export * from './checkpointed-consumer.js';
