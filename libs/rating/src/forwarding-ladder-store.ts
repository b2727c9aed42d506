import type { LadderEvent } from '@ranking/contracts';
import type { Annulment } from './annulment.js';
import type { LadderStore, StoredSnapshot } from './ladder-store.js';

/**
 * A ladder store that hands every call to another: the base of stores that change one thing
 * about the one they wrap (what they show, how they count), overriding only that.
 */
export class ForwardingLadderStore implements LadderStore {
  constructor(protected readonly store: LadderStore) {}

  events(ladder: string, after: number, upTo: number): AsyncIterable<readonly LadderEvent[]> {
    return this.store.events(ladder, after, upTo);
  }

  lastPosition(ladder: string): Promise<number> {
    return this.store.lastPosition(ladder);
  }

  annulments(ladder: string): Promise<readonly Annulment[]> {
    return this.store.annulments(ladder);
  }

  firstCovered(ladder: string, annulment: Annulment): Promise<number | null> {
    return this.store.firstCovered(ladder, annulment);
  }

  snapshotPositions(ladder: string): Promise<readonly number[]> {
    return this.store.snapshotPositions(ladder);
  }

  snapshot(ladder: string, position: number): Promise<StoredSnapshot | null> {
    return this.store.snapshot(ladder, position);
  }
}
