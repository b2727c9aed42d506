import type { LadderEvent } from '@ranking/contracts';
import { type Annulment, annulmentOf } from './annulment.js';
import type { LadderConfig } from './ladder-config.js';
import { LadderFold, type LadderSnapshot } from './ladder-fold.js';
import type { LadderStore } from './ladder-store.js';

export interface StoreFoldOptions {
  /** Fold the log up to this position (default: its end). */
  readonly upTo?: number;
  /** Start from the log's first event, whatever snapshots there are. */
  readonly fromStart?: boolean;
  /** Start from a snapshot at or before this position only (a what-if whose change starts there). */
  readonly startAtOrBefore?: number;
  /**
   * Keep the skill estimate (default: yes, as the rating service does). Without it a snapshot's
   * estimate is dropped; with it a snapshot written without one is not used.
   */
  readonly skill?: boolean;
  /** Events folded after the stored ones as if they were stored next (a dry-run annulment). */
  readonly then?: readonly LadderEvent[];
  /**
   * From this position on, the fold lists what it writes (`changedPlayers`, `changedGameRows`):
   * a re-fold for an annulment writes back only what changed from its first covered game on.
   */
  readonly markWrittenAt?: number;
}

/** A ladder folded from its store. */
export interface StoreFold {
  readonly fold: LadderFold;
  /** Where the fold started: a snapshot's position, or 0 for the log's start. */
  readonly from: number;
  /** The stored position it reached (`then` events not counted). */
  readonly position: number;
  /** Stored events folded (from `from` to `position`). */
  readonly events: number;
  /** Events the fold rejected: none for a log the rating service wrote with this configuration. */
  readonly rejected: number;
}

/**
 * A ladder's state at a position of its stored log: the one definition the live annulment, the
 * rebuild, the dry runs and the what-ifs share (ADR 24). It is `LadderFold.fromLog` of the log's
 * first `upTo` events, with every annulment of those known up front; it starts from the newest
 * usable snapshot instead of the log's start, one that no annulment standing at or after it
 * reaches back past (an annulment covers games standing before it, so a snapshot after its first
 * covered game does not hold that game as covered).
 */
export async function foldFromStore(
  store: LadderStore,
  ladder: LadderConfig,
  options: StoreFoldOptions = {},
): Promise<StoreFold> {
  const upTo = options.upTo ?? (await store.lastPosition(ladder.id));
  const then = options.then ?? [];
  const annulments: Annulment[] = (await store.annulments(ladder.id)).filter(
    (a) => a.position < upTo,
  );
  then.forEach((e, i) => {
    if (e.type === 'player.annulled') annulments.push(annulmentOf(e, upTo + i));
  });
  const skill = options.skill !== false;
  const start = options.fromStart
    ? null
    : await usableSnapshot(
        store,
        ladder,
        annulments,
        Math.min(upTo, options.startAtOrBefore ?? upTo),
        skill,
      );
  const fold =
    start === null
      ? LadderFold.refolding(ladder, annulments, { skill })
      : LadderFold.resuming(ladder, start, annulments);
  const from = start?.accepted ?? 0;
  let rejected = 0;
  const markAt = options.markWrittenAt;
  if (markAt !== undefined && markAt <= from) fold.markWritten();
  let at = from;
  for await (const batch of store.events(ladder.id, from, upTo))
    for (const event of batch) {
      if (at++ === markAt) fold.markWritten();
      if (fold.evolve(event).status === 'rejected') rejected++;
    }
  const events = fold.accepted + rejected - from;
  for (const event of then) if (fold.evolve(event).status === 'rejected') rejected++;
  return { fold, from, position: upTo, events, rejected };
}

/**
 * The newest snapshot at or before `limit` that every later annulment leaves whole and that
 * holds a skill estimate if one is asked for (without the estimate when none is).
 */
async function usableSnapshot(
  store: LadderStore,
  ladder: LadderConfig,
  annulments: readonly Annulment[],
  limit: number,
  skill: boolean,
): Promise<LadderSnapshot | null> {
  const firsts = new Map<Annulment, number | null>();
  const firstOf = async (a: Annulment) => {
    if (!firsts.has(a)) firsts.set(a, await store.firstCovered(ladder.id, a));
    return firsts.get(a)!;
  };
  candidates: for (const position of await store.snapshotPositions(ladder.id)) {
    if (position > limit) continue;
    for (const a of annulments) {
      if (a.position < position) continue;
      const first = await firstOf(a);
      if (first !== null && first < position) continue candidates;
    }
    const snapshot = await store.snapshot(ladder.id, position);
    if (snapshot === null) continue;
    const { skill: estimate, ...state } = snapshot.state;
    if (!skill) return state;
    if (estimate !== undefined) return snapshot.state;
  }
  return null;
}
