/**
 * The producer `ranking simulate` publishes its live games as (ADR 39), like any game server;
 * `ranking setup --with-simulator` registers it and grants its backfill on the ladder log.
 */
export const SIMULATOR_PRODUCER = 'simulator';
