import type { LadderEvent, LadderEventType, PeriodName } from '@ranking/contracts';
import type { PlayerChange } from './player-change.js';

/** Rating changes of one event: listed, or summarised when a close moved more players. */
export const RATING_CHANGES_SUMMARY_OVER = 100;

interface RatingChangeBase {
  readonly eventId: string;
  readonly ladder: string;
  /** The event's place in its ladder's log. */
  readonly seq: number;
  readonly type: LadderEventType;
  /** On a `period.closed`: which close it was. */
  readonly period?: PeriodName;
  readonly key?: string;
}

/**
 * One message of `ranking.rating-changes` (CONTRACT.md): what the rating service applied for
 * one event. The rating service writes it with `ratingChangeMessage`, the leaderboard reads it
 * with `readRatingChangeMessage`; neither declares it again.
 */
export type RatingChangeMessage =
  | (RatingChangeBase & { readonly changes: readonly PlayerChange[] })
  | (RatingChangeBase & { readonly summary: true; readonly moved: number });

/** The message of one applied event: its changes, or a summary when it moved many players. */
export function ratingChangeMessage(
  event: LadderEvent,
  seq: number,
  changes: readonly PlayerChange[],
  moved: number,
): RatingChangeMessage {
  const base: RatingChangeBase = {
    eventId: event.id,
    ladder: event.ladder,
    seq,
    type: event.type,
    ...(event.type === 'period.closed' ? { period: event.period, key: event.key } : {}),
  };
  return moved > RATING_CHANGES_SUMMARY_OVER
    ? { ...base, summary: true, moved }
    : { ...base, changes };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A rating-changes message read back, checked as far as a reader relies on it (ids, the close,
 * each change's player), or the reason it cannot be read.
 */
export function readRatingChangeMessage(text: string): RatingChangeMessage | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'invalid JSON';
  }
  if (!isObject(value)) return 'not an object';
  const { eventId, ladder, seq, type, period, key } = value;
  if (typeof eventId !== 'string' || typeof ladder !== 'string' || typeof type !== 'string')
    return 'no event id, ladder or type';
  if (typeof seq !== 'number') return 'no seq';
  if (type === 'period.closed' && (typeof period !== 'string' || typeof key !== 'string'))
    return 'a close without its period and key';
  if (value.summary === true) {
    if (typeof value.moved !== 'number') return 'a summary without its count';
  } else if (
    !Array.isArray(value.changes) ||
    !value.changes.every((c) => isObject(c) && typeof c.player === 'string')
  )
    return 'neither changes nor a summary';
  return value as unknown as RatingChangeMessage;
}
