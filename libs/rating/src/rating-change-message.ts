import type {
  AnnulmentSummary,
  LadderEvent,
  PlayerAnnulled,
  RatingChangesMessage,
} from '@ranking/contracts';
import type { Why } from './effect.js';
import type { PlayerChange } from './player-change.js';

/** Rating changes of one event: listed, or summarised when a close moved more players. */
export const RATING_CHANGES_SUMMARY_OVER = 100;

/**
 * The `ranking.rating-changes` message of one applied event (the contract's type, in
 * libs/contracts): its changes, or a summary when a close moved more than
 * RATING_CHANGES_SUMMARY_OVER players. A game, a correction or a penalty moves a few players
 * at most, so it always lists them; an annulment is always a summary.
 */
export function ratingChangeMessage(
  event: LadderEvent,
  seq: number,
  changes: readonly PlayerChange[],
  moved: number,
): RatingChangesMessage<Why> {
  if (event.type === 'player.annulled') return annulmentMessage(event, seq, moved);
  const head = { eventId: event.id, ladder: event.ladder, seq };
  if (event.type !== 'period.closed') return { ...head, type: event.type, changes };
  const close = { ...head, type: event.type, period: event.period, key: event.key };
  return moved > RATING_CHANGES_SUMMARY_OVER
    ? { ...close, summary: true, moved }
    : { ...close, changes };
}

/** The message of an applied annulment: always a summary of how many players it moved. */
export function annulmentMessage(
  event: PlayerAnnulled,
  seq: number,
  moved: number,
): AnnulmentSummary {
  return {
    eventId: event.id,
    ladder: event.ladder,
    seq,
    type: event.type,
    player: event.player,
    summary: true,
    moved,
  };
}
