/** Injection tokens of the intake service. */
export const ENVIRONMENT = Symbol('environment');
export const LADDERS = Symbol('ladders');
export const KAFKA = Symbol('kafka');
/** PostgreSQL, for the producers alone (ADR 39): who may write which ladders. */
export const DATA_SOURCE = Symbol('data-source');
