/** Injection tokens of the maintenance service. */
export const ENVIRONMENT = Symbol('environment');
export const LADDERS = Symbol('ladders');
export const CLOCK = Symbol('clock');
export const DATA_SOURCE = Symbol('data-source');
export const KAFKA = Symbol('kafka');
