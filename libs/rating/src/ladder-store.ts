import type { LadderEvent } from '@ranking/contracts';
import type { Annulment } from './annulment.js';
import type { LadderSnapshot } from './ladder-fold.js';

/**
 * A snapshot of a ladder as a store keeps it: the fold's state after the first `position`
 * events of the ladder's log (a snapshot's `accepted` is its position: the store holds accepted
 * events only), with the id of the event at that position, which a reader checks against the
 * log so that a snapshot of another log is never used.
 */
export interface StoredSnapshot {
  readonly position: number;
  readonly lastEventId: string;
  readonly state: LadderSnapshot;
}

/**
 * What folding a ladder from its stored log needs from storage: the port the rating core
 * declares and `libs/persistence` implements once (PgLadderStore). The rating service's
 * annulments, `ranking rebuild`, `annul --dry-run`, `whatif --from-store` and the snapshot
 * writer all fold through `foldFromStore` over it.
 *
 * Positions count events in the ladder's log: position p is the state after its first p events
 * (the event store's `seq` p is the p-th event).
 */
export interface LadderStore {
  /** The log's events after position `after`, up to position `upTo` (inclusive), in order, in batches. */
  events(ladder: string, after: number, upTo: number): AsyncIterable<readonly LadderEvent[]>;
  /** The last position of the ladder's log (0 when it has none). */
  lastPosition(ladder: string): Promise<number>;
  /** Every annulment of the log, where it stands (`Annulment.position`: its index, from 0). */
  annulments(ladder: string): Promise<readonly Annulment[]>;
  /**
   * The index of the first game of the log that the annulment covers (RULES.md "Annulment": a
   * game of its player, finished at or after `since`, standing before it), or null when it
   * covers none.
   */
  firstCovered(ladder: string, annulment: Annulment): Promise<number | null>;
  /** The positions of the ladder's snapshots that this code can read, newest first. */
  snapshotPositions(ladder: string): Promise<readonly number[]>;
  /** The snapshot at that position, or null when it is gone or unreadable (derived data). */
  snapshot(ladder: string, position: number): Promise<StoredSnapshot | null>;
}
