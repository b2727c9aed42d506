/** i.Game's disconnect rule (RULES.md): 5 disconnects cost 100 points; 50 clean games forgive. */
export const DISCONNECT_LIMIT = 5;
export const DISCONNECT_PENALTY = -100;
export const CLEAN_STREAK_RESET = 50;

export interface DisconnectCounter {
  readonly count: number;
  readonly streak: number;
  /** Penalties issued so far: the ordinal in a penalty's deterministic id. */
  readonly penalties: number;
}

export interface DisconnectStep {
  readonly counter: DisconnectCounter;
  /** Set when this game triggers a penalty: its ordinal (1 for the player's first). */
  readonly penaltyOrdinal: number | null;
}

/** One non-void game of the player. Void games must not be passed in. */
export function countDisconnect(counter: DisconnectCounter, disconnected: boolean): DisconnectStep {
  if (disconnected) {
    const count = counter.count + 1;
    if (count >= DISCONNECT_LIMIT) {
      const penalties = counter.penalties + 1;
      return { counter: { count: 0, streak: 0, penalties }, penaltyOrdinal: penalties };
    }
    return { counter: { count, streak: 0, penalties: counter.penalties }, penaltyOrdinal: null };
  }
  const streak = counter.streak + 1;
  // The streak keeps running after it forgives; the counter is already 0 by then.
  const count = streak === CLEAN_STREAK_RESET ? 0 : counter.count;
  return { counter: { count, streak, penalties: counter.penalties }, penaltyOrdinal: null };
}

/** The deterministic id of a disconnect penalty: a redelivery or restart cannot penalize twice. */
export const disconnectPenaltyId = (ladder: string, player: string, ordinal: number): string =>
  `player.penalized:${ladder}:${player}:disconnects:${ordinal}`;
