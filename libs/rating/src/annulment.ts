import {
  type GameFinished,
  instantMillis,
  type LadderEvent,
  type PlayerAnnulled,
} from '@ranking/contracts';
import type { PlayerEffect, Why } from './effect.js';
import type { GameDecision } from './game-decision.js';
import type { PlayerChange } from './player-change.js';
import { type PlayerState, updatePlayer } from './player-state.js';

/** An annulment as a re-fold reads it (RULES.md "Annulment"). */
export interface Annulment {
  readonly player: string;
  /** Epoch ms: games that finished at or after it are covered. */
  readonly since: number;
  /** Its index in the ladder's log: it covers games that stand before it, never after. */
  readonly position: number;
}

export const annulmentOf = (event: PlayerAnnulled, position: number): Annulment => ({
  player: event.player,
  since: instantMillis(event.since),
  position,
});

/** The annulments of a ladder's log (its accepted events, in order), where they stand. */
export function annulmentsOf(log: Iterable<LadderEvent>): Annulment[] {
  const annulments: Annulment[] = [];
  let position = 0;
  for (const event of log) {
    if (event.type === 'player.annulled') annulments.push(annulmentOf(event, position));
    position++;
  }
  return annulments;
}

/** Why a covered game moved nothing, and why an annulment moved a player. */
export const annulmentWhy = (annulment: Annulment): Why => ({
  kind: 'annulment',
  player: annulment.player,
  since: annulment.since,
});

/** Which games of a ladder's log a set of annulments covers, looked up by player. */
export class Coverage {
  private readonly byPlayer = new Map<string, Annulment[]>();
  private readonly positions = new Set<number>();

  constructor(annulments: Iterable<Annulment>) {
    for (const a of annulments) {
      const list = this.byPlayer.get(a.player);
      if (list) list.push(a);
      else this.byPlayer.set(a.player, [a]);
      this.positions.add(a.position);
    }
  }

  /** Whether an annulment of this set stands at the position (the re-fold has applied it). */
  standsAt(position: number): boolean {
    return this.positions.has(position);
  }

  /**
   * The first annulment that covers the game standing at `position`: one of a player it lists,
   * with `since` at or before its finishedAt, that stands after it. Null when none does.
   */
  of(game: GameFinished, finishedAt: number, position: number): Annulment | null {
    if (this.byPlayer.size === 0) return null;
    for (const p of game.players) {
      const list = this.byPlayer.get(p.id);
      if (!list) continue;
      for (const a of list) if (a.position > position && finishedAt >= a.since) return a;
    }
    return null;
  }
}

/**
 * A covered game's effect on one player: only the fact that it was played. It still counts as
 * a rated game where it was rated (quotas, `ranked`, the first rated game), but moves no
 * rating, score or captures and counts in no games/W/L/D record.
 */
export const playedOnly = (effect: PlayerEffect, why: Why): PlayerEffect => ({
  rating: 0,
  games: 0,
  wins: 0,
  losses: 0,
  draws: 0,
  rated: effect.rated,
  captures: 0,
  result: null,
  why,
});

/**
 * The decision of a covered game: the game folded as usual, each player's effect kept only as
 * played. Its disconnect counters and penalties stand (the flags still count); a void or
 * recorded game stays as it was.
 */
export function coveredDecision(decision: GameDecision, why: Why): GameDecision {
  if (decision.status !== 'scored') return decision;
  return { ...decision, effects: decision.effects.map((e) => playedOnly(e, why)) };
}

/** A player's whole state as comparable text (fields in updatePlayer's one order). */
const stateText = (p: PlayerState): string => JSON.stringify(updatePlayer(p, {}));

/**
 * What a re-fold changed: every player whose state differs from before (new players too),
 * with the rating before and after, in the order of the re-folded ladder's players.
 */
export function refoldChanges(
  before: ReadonlyMap<string, PlayerState>,
  after: ReadonlyMap<string, PlayerState>,
  why: Why,
): PlayerChange[] {
  const changes: PlayerChange[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was !== undefined && stateText(was) === stateText(now)) continue;
    const from = was?.rating ?? now.rating;
    changes.push({
      player: id,
      before: from,
      after: now.rating,
      delta: now.rating - from,
      result: null,
      why,
    });
  }
  return changes;
}
