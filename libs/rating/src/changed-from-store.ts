import { ForwardingLadderStore } from './forwarding-ladder-store.js';
import type { LadderConfig } from './ladder-config.js';
import type { LadderStore, StoredSnapshot } from './ladder-store.js';
import { foldFromStore } from './store-fold.js';

/**
 * A ladder's store as a what-if whose settings change at a position sees it (`ranking whatif
 * --changes-from`): the same log, with one snapshot, at that position, of the ladder as it is
 * there (folded from the store under its own settings, when asked for). `foldFromStore` of the
 * variant over it starts from that state, so the variant's settings apply to the events after
 * the position only. Like any snapshot it is not used when an annulment after the position
 * covers a game before it: the fold then starts from the log's start, which a caller that means
 * the change to start at the position must refuse (`StoreFold.from`). The variant must keep the
 * ladder's rule set: the state is the ladder's.
 */
export class ChangedFromStore extends ForwardingLadderStore {
  constructor(
    store: LadderStore,
    /** The ladder as it is: the state at `position` is its. */
    private readonly ladder: LadderConfig,
    readonly position: number,
    private readonly options: { readonly skill?: boolean } = {},
  ) {
    super(store);
  }

  override snapshotPositions(): Promise<readonly number[]> {
    return Promise.resolve([this.position]);
  }

  override async snapshot(_ladder: string, position: number): Promise<StoredSnapshot | null> {
    if (position !== this.position) return null;
    const skill = this.options.skill !== false;
    const { fold } = await foldFromStore(this.store, this.ladder, { upTo: position, skill });
    return { position, lastEventId: '', state: fold.snapshot() };
  }
}
