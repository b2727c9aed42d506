/** Injection tokens of the intake service. */
export const ENVIRONMENT = Symbol('environment');
export const LADDERS = Symbol('ladders');
export const KAFKA = Symbol('kafka');
