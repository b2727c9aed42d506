import type { PlayerAnnulled } from '@ranking/contracts';
import { annulmentOf, annulmentWhy, refoldChanges } from './annulment.js';
import type { PlayerChange } from './player-change.js';
import type { LadderConfig } from './ladder-config.js';
import type { LadderStore } from './ladder-store.js';
import { foldFromStore } from './store-fold.js';

/** What an annulment would change if it were published now (`ranking annul --dry-run`). */
export interface AnnulmentPreview {
  readonly ladder: string;
  readonly player: string;
  readonly since: string;
  /** Events of the ladder's stored log the preview folded. */
  readonly events: number;
  /** Events the folds rejected (the ladder's configuration changed since they were stored). */
  readonly rejected: number;
  /** Players whose state would change. */
  readonly moved: number;
  readonly changes: readonly Pick<PlayerChange, 'player' | 'before' | 'after' | 'delta'>[];
}

/**
 * The ladder's stored log folded as it is and with the annulment at its end, compared: both
 * folds as the rating service's (`foldFromStore`, each from the newest snapshot it may start
 * from: the one with the annulment from one before the first game it covers). The store should
 * read one snapshot of the database (a repeatable-read transaction) so both folds read the same
 * log. The one preview the CLI's dry run and the review route share.
 */
export async function annulmentPreview(
  store: LadderStore,
  ladder: LadderConfig,
  event: PlayerAnnulled,
): Promise<AnnulmentPreview> {
  // Players only: the skill estimate is not part of what an annulment reports.
  const now = await foldFromStore(store, ladder, { skill: false });
  const then = await foldFromStore(store, ladder, {
    upTo: now.position,
    skill: false,
    then: [event],
  });
  // The annulment would stand right after the stored log.
  const why = annulmentWhy(annulmentOf(event, now.position));
  const changes = refoldChanges(now.fold.players, then.fold.players, why);
  return {
    ladder: ladder.id,
    player: event.player,
    since: event.since,
    events: now.position,
    rejected: now.rejected + then.rejected,
    moved: changes.length,
    changes: changes.map(({ player, before, after, delta }) => ({ player, before, after, delta })),
  };
}
