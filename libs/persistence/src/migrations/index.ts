import { EventStore1764400000000 } from './1764400000000-event-store.js';

/** Every migration, oldest first. Schema changes only ever go through these (never `synchronize`). */
export const MIGRATIONS = [EventStore1764400000000];
