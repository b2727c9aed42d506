/** Injection tokens of the rating service. */
export const ENVIRONMENT = Symbol('environment');
export const LADDERS = Symbol('ladders');
export const DATA_SOURCE = Symbol('data-source');
export const KAFKA = Symbol('kafka');
/** The outbox bundles the consumer wrote, for the relay to publish from memory. */
export const OUTBOX_HANDOFF = Symbol('outbox-handoff');
