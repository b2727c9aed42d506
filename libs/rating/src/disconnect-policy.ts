import { IGAME_ELO_PARAMS } from './rules/igame-elo-params.js';

/**
 * i.Game's disconnect rule (RULES.md), a ladder's params: `disconnectLimit` disconnects (5) cost
 * `disconnectPenalty` points (−100); `cleanStreak` clean games in a row (50) forgive.
 */
export interface DisconnectRule {
  readonly disconnectLimit: number;
  readonly disconnectPenalty: number;
  readonly cleanStreak: number;
}

export interface DisconnectCounter {
  readonly count: number;
  readonly streak: number;
  /** Penalties issued so far: the ordinal in a penalty's deterministic id. */
  readonly penalties: number;
}

/** A counter before the player's first game. */
export const NO_DISCONNECTS: DisconnectCounter = Object.freeze({
  count: 0,
  streak: 0,
  penalties: 0,
});

export interface DisconnectStep {
  readonly counter: DisconnectCounter;
  /** Set when this game triggers a penalty: its ordinal (1 for the player's first). */
  readonly penaltyOrdinal: number | null;
}

/** One non-void game of the player under the ladder's rule (i.Game's by default). Void games must not be passed in. */
export function countDisconnect(
  counter: DisconnectCounter,
  disconnected: boolean,
  rule: DisconnectRule = IGAME_ELO_PARAMS.defaults,
): DisconnectStep {
  if (disconnected) {
    const count = counter.count + 1;
    if (count >= rule.disconnectLimit) {
      const penalties = counter.penalties + 1;
      return { counter: { count: 0, streak: 0, penalties }, penaltyOrdinal: penalties };
    }
    return { counter: { count, streak: 0, penalties: counter.penalties }, penaltyOrdinal: null };
  }
  const streak = counter.streak + 1;
  // The streak keeps running after it forgives; the counter is already 0 by then.
  const count = streak === rule.cleanStreak ? 0 : counter.count;
  return { counter: { count, streak, penalties: counter.penalties }, penaltyOrdinal: null };
}

/** The deterministic id of a disconnect penalty: a redelivery or restart cannot penalize twice. */
export const disconnectPenaltyId = (ladder: string, player: string, ordinal: number): string =>
  `player.penalized:${ladder}:${player}:disconnects:${ordinal}`;
