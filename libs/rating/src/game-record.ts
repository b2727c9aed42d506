import type { PlayerReport, VoidReason } from '@ranking/contracts';
import type { PlayerEffect } from './effect.js';
import type { PlayerSnapshot } from './player-state.js';
import type { GameSetting } from './rule-set.js';

/** What a ladder keeps of an accepted game so that a correction can recompute it. */
export interface GameRecord {
  readonly gameId: string;
  readonly eventId: string;
  readonly finishedAt: number;
  readonly moves: number;
  readonly setting: GameSetting;
  /** The players as currently adjudicated (corrections replace fields). */
  readonly players: readonly PlayerReport[];
  /** Each player's state before the game. */
  readonly before: readonly PlayerSnapshot[];
  /** The game's current effect on each player (zero when voided by a correction). */
  readonly effects: readonly PlayerEffect[];
  /** Void on arrival: such a game stays void whatever a correction says. */
  readonly voidOnArrival: VoidReason | null;
}
