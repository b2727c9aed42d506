import { instantMillis, type LadderEvent, type LadderEventType } from '@ranking/contracts';

/**
 * The event behind a history row, as a history page shows it: its type and its own instant
 * (when the game was played, not when the service applied it), with what names it.
 */
export interface HistoryEvent {
  readonly type: LadderEventType;
  /**
   * The event's own instant, UTC: a game's finish, a correction's, the end of a closed period,
   * a penalty's, an annulment's.
   */
  readonly at: string;
  readonly gameId?: string;
  /** A correction that voids the game. */
  readonly void?: boolean;
  readonly period?: string;
  readonly key?: string;
  /** A penalty's reason, or how a game ended. */
  readonly reason?: string;
  /** A correction's or an annulment's note. */
  readonly note?: string;
  /** An annulment: the instant from which the player's games count for nothing (UTC). */
  readonly since?: string;
}

// Placed as the fold places it (`instantMillis`: the first three fraction digits, never
// rounded), so a history never shows a game in another second, day or period than it counts in.
const utc = (instant: string): string => new Date(instantMillis(instant)).toISOString();

/** What a history page shows of a stored event. */
export function historyEvent(event: LadderEvent): HistoryEvent {
  switch (event.type) {
    case 'game.finished':
      return {
        type: event.type,
        at: utc(event.finishedAt),
        gameId: event.gameId,
        ...(event.reason === undefined ? {} : { reason: event.reason }),
      };
    case 'game.corrected':
      return {
        type: event.type,
        at: utc(event.correctedAt),
        gameId: event.gameId,
        void: event.void === true,
        ...(event.note === undefined ? {} : { note: event.note }),
      };
    case 'period.closed':
      return { type: event.type, at: utc(event.end), period: event.period, key: event.key };
    case 'player.penalized':
      return { type: event.type, at: utc(event.at), reason: event.reason };
    case 'player.annulled':
      return {
        type: event.type,
        at: utc(event.annulledAt),
        since: utc(event.since),
        ...(event.note === undefined ? {} : { note: event.note }),
      };
    default: {
      const unknown: never = event;
      throw new Error(`no history summary for ${JSON.stringify(unknown)}`);
    }
  }
}
