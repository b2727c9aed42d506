import type { LadderEvent } from '@ranking/contracts';
import type { Annulment, LadderStore, StoredSnapshot } from '@ranking/rating';
import { progressBar } from './progress.js';

/** Below this many events a read takes a moment: no progress bar. */
const LONG_RUN = 100_000;

/**
 * A ladder store whose event reads show their progress (a bar at a terminal, a line every so
 * often elsewhere): what the commands that fold a ladder from its store (`foldFromStore`) read
 * through.
 */
export class ProgressLadderStore implements LadderStore {
  constructor(
    private readonly store: LadderStore,
    /** The command the progress speaks for. */
    private readonly context: string,
  ) {}

  async *events(
    ladder: string,
    after: number,
    upTo: number,
  ): AsyncGenerator<readonly LadderEvent[]> {
    const total = upTo - after;
    const bar = progressBar(total >= LONG_RUN ? total : 0, 'events', this.context);
    let read = 0;
    try {
      for await (const batch of this.store.events(ladder, after, upTo)) {
        yield batch;
        read += batch.length;
        bar.update(read);
      }
    } finally {
      bar.stop();
    }
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
