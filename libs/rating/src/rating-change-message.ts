import type {
  AnnulmentSummary,
  BoardStanding,
  LadderEvent,
  ListedChange,
  PlayerAnnulled,
  RatingChangesMessage,
} from '@ranking/contracts';
import type { Why } from './effect.js';
import type { PlayerChange } from './player-change.js';
import type { Skill } from './skill-model.js';

/** Rating changes of one event: listed, or summarised when a close moved more players. */
export const RATING_CHANGES_SUMMARY_OVER = 100;

/** Where a message stands in its ladder's messages: its event's seq and the previous message's. */
export interface MessagePlace {
  readonly seq: number;
  /** The seq of the ladder's previous message (0: none). */
  readonly previousSeq: number;
}

/**
 * One player an event moved, as the rating history records it: the change, the player's board
 * fields right after the event, and how the event moved their skill estimate (null: it did not).
 */
export interface MovedPlayer {
  readonly change: PlayerChange;
  readonly standing: BoardStanding;
  readonly skill: { readonly after: Skill } | null;
}

/**
 * The `ranking.rating-changes` message of one applied event (the contract's type, in
 * libs/contracts): its changes, each with the player's board standing after the event, or a
 * summary when a close moved more than RATING_CHANGES_SUMMARY_OVER players. A game, a
 * correction or a penalty moves a few players at most, so it always lists them; an annulment
 * is always a summary.
 */
export function ratingChangeMessage(
  event: LadderEvent,
  place: MessagePlace,
  moved: readonly MovedPlayer[],
  count: number,
): RatingChangesMessage<Why> {
  if (event.type === 'player.annulled') return annulmentMessage(event, place, count);
  const head = { eventId: event.id, ladder: event.ladder, ...place };
  const changes = () => moved.map(listedChange);
  if (event.type !== 'period.closed') return { ...head, type: event.type, changes: changes() };
  const close = { ...head, type: event.type, period: event.period, key: event.key };
  return count > RATING_CHANGES_SUMMARY_OVER
    ? { ...close, summary: true, moved: count }
    : { ...close, changes: changes() };
}

/** The message of an applied annulment: always a summary of how many players it moved. */
export function annulmentMessage(
  event: PlayerAnnulled,
  place: MessagePlace,
  moved: number,
): AnnulmentSummary {
  return {
    eventId: event.id,
    ladder: event.ladder,
    ...place,
    type: event.type,
    player: event.player,
    summary: true,
    moved,
  };
}

/** A change as a message lists it: the board fields copied member by member, in one order. */
function listedChange({ change, standing, skill }: MovedPlayer): ListedChange<Why> {
  const { games, wins, losses, draws, ratedGames, level } = standing;
  return {
    ...change,
    standing: { games, wins, losses, draws, ratedGames, level },
    ...(skill === null ? {} : { skill: { mu: skill.after.mu, sigma: skill.after.sigma } }),
  };
}
