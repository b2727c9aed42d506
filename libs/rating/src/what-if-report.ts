import { boardRanks } from './board-ranks.js';
import { kendallTau } from './kendall-tau.js';
import type { LadderConfig } from './ladder-config.js';
import type { LadderFold } from './ladder-fold.js';
import { newPlayer, type PlayerState } from './player-state.js';
import { byCodeUnit, isDefaultState } from './standings.js';

/** The boards' head whose comings and goings a what-if reports. */
export const WHAT_IF_TOP = 100;

/** One player on one side of a what-if: rating, rank on the board, the rule set's own fields. */
export type WhatIfSide = {
  readonly rating: number | null;
  /** Null when the player is not on the board (not ranked, or a ladder without boards). */
  readonly rank: number | null;
} & Readonly<Record<string, string | number | null>>;

export interface WhatIfPlayer {
  readonly player: string;
  readonly asIs: WhatIfSide;
  readonly variant: WhatIfSide;
  /** The variant's rating minus the ladder's as it is (0 where a side keeps no rating). */
  readonly change: number;
}

export interface WhatIfSummary {
  /** Players in the report: every player not in the default state on at least one side. */
  readonly players: number;
  /** Players whose rating differs. */
  readonly moved: number;
  /** Mean of |change| over every player in the report. */
  readonly meanAbsoluteChange: number;
  readonly largestAbsoluteChange: number;
  /** Players on each board, and on both. */
  readonly ranked: { readonly asIs: number; readonly variant: number; readonly both: number };
  /**
   * Kendall's tau-b between the two boards' orders, over the players on both (1: the same
   * order); null when undefined (fewer than two such players, or all tied on one board).
   */
  readonly kendallTau: number | null;
  /** Who leaves and who enters the top WHAT_IF_TOP ranks, best rank first. */
  readonly top: {
    readonly size: number;
    readonly left: readonly string[];
    readonly entered: readonly string[];
  };
}

export interface WhatIfReport {
  readonly ladder: string;
  readonly asIs: LadderConfig;
  readonly variant: LadderConfig;
  /** Events each fold accepted (applied or void). */
  readonly accepted: { readonly asIs: number; readonly variant: number };
  readonly summary: WhatIfSummary;
  /** In code-unit order of the player ids. */
  readonly players: readonly WhatIfPlayer[];
}

type Folded = Pick<LadderFold, 'ladder' | 'rules' | 'players' | 'accepted'>;

/**
 * Compares one ladder folded twice from the same log: as it is, and under a variant of its
 * settings. Pure: the same two folds give the same report, byte for byte once written.
 */
export function whatIfReport(asIs: Folded, variant: Folded): WhatIfReport {
  const ids = new Set<string>();
  for (const fold of [asIs, variant])
    for (const p of fold.players.values()) if (!isDefaultState(p, fold.ladder)) ids.add(p.id);
  const sorted = [...ids].sort(byCodeUnit);
  const ranksBefore = boardRanks(asIs.players.values(), asIs.ladder);
  const ranksAfter = boardRanks(variant.players.values(), variant.ladder);
  const players: WhatIfPlayer[] = [];
  const onBoth: { before: number; after: number }[] = [];
  let moved = 0;
  let total = 0;
  let largest = 0;
  for (const id of sorted) {
    const before = side(asIs, id, ranksBefore);
    const after = side(variant, id, ranksAfter);
    const change =
      before.rating !== null && after.rating !== null ? after.rating - before.rating : 0;
    if (change !== 0) moved++;
    total += Math.abs(change);
    largest = Math.max(largest, Math.abs(change));
    if (before.rank !== null && after.rank !== null)
      onBoth.push({ before: before.rank, after: after.rank });
    players.push({ player: id, asIs: before, variant: after, change });
  }
  return {
    ladder: asIs.ladder.id,
    asIs: asIs.ladder,
    variant: variant.ladder,
    accepted: { asIs: asIs.accepted, variant: variant.accepted },
    summary: {
      players: players.length,
      moved,
      meanAbsoluteChange: players.length === 0 ? 0 : total / players.length,
      largestAbsoluteChange: largest,
      ranked: { asIs: ranksBefore.size, variant: ranksAfter.size, both: onBoth.length },
      // Ranks order the board as ratings do (ties included), so tau over ranks is tau over it.
      kendallTau: kendallTau(
        onBoth.map((p) => p.before),
        onBoth.map((p) => p.after),
      ),
      top: {
        size: WHAT_IF_TOP,
        left: leaving(ranksBefore, ranksAfter),
        entered: leaving(ranksAfter, ranksBefore),
      },
    },
    players,
  };
}

function side(fold: Folded, id: string, ranks: ReadonlyMap<string, number>): WhatIfSide {
  const player: PlayerState = fold.players.get(id) ?? newPlayer(id, fold.ladder);
  return {
    rating: fold.rules.keepsRating ? player.rating : null,
    rank: ranks.get(id) ?? null,
    ...fold.rules.outputFields(player),
  };
}

/** Players in the top of `from` but not of `to`, by their rank in `from`, then id. */
function leaving(from: ReadonlyMap<string, number>, to: ReadonlyMap<string, number>): string[] {
  const inTop = (ranks: ReadonlyMap<string, number>, id: string) =>
    (ranks.get(id) ?? Infinity) <= WHAT_IF_TOP;
  return [...from]
    .filter(([id]) => inTop(from, id) && !inTop(to, id))
    .sort(([a, ra], [b, rb]) => ra - rb || byCodeUnit(a, b))
    .map(([id]) => id);
}

/**
 * The report as chunks of JSON text, one player a line: a report of a million players is
 * written without one string of its whole size.
 */
export function* renderWhatIf(
  report: WhatIfReport,
  head: Readonly<Record<string, unknown>> = {},
): Generator<string> {
  const { players, ...rest } = report;
  yield `${JSON.stringify({ ...head, ...rest }).slice(0, -1)},"players":[`;
  for (let i = 0; i < players.length; i++)
    yield `${i === 0 ? '' : ','}\n${JSON.stringify(players[i])}`;
  yield '\n]}\n';
}
