import type { LadderEvent } from '@ranking/contracts';
import { ForwardingLadderStore, type LadderStore } from '@ranking/rating';
import { progressBar } from './progress.js';

/** Below this many events a read takes a moment: no progress bar. */
const LONG_RUN = 100_000;

/**
 * A ladder store whose event reads show their progress (a bar at a terminal, a line every so
 * often elsewhere): what the commands that fold a ladder from its store (`foldFromStore`) read
 * through.
 */
export class ProgressLadderStore extends ForwardingLadderStore {
  constructor(
    store: LadderStore,
    /** The command the progress speaks for. */
    private readonly context: string,
  ) {
    super(store);
  }

  override async *events(
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
}
