import type { PlayerReport, VoidReason } from '@ranking/contracts';
import type { PackedEffects } from './effect.js';
import type { PackedSnapshots } from './player-state.js';
import type { GameSetting } from './rule-set.js';

/** What a ladder keeps of an accepted game so that a correction can recompute it. */
export interface GameRecord {
  readonly gameId: string;
  readonly finishedAt: number;
  readonly moves: number;
  readonly setting: GameSetting;
  /** The players as currently adjudicated (corrections replace fields), trimmed to the fields the rule set reads. */
  readonly players: readonly PlayerReport[];
  /** Each player's state before the game. */
  readonly before: PackedSnapshots;
  /** The game's current effect on each player (zero when voided by a correction), packed. */
  readonly effects: PackedEffects;
  /** Void on arrival: such a game stays void whatever a correction says. */
  readonly voidOnArrival: VoidReason | null;
  /**
   * Covered by an annulment: it stands as played and worth nothing, and a correction changes
   * it no more, but for a void one (RULES.md "Annulment").
   */
  readonly covered: boolean;
}
