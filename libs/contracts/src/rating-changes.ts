// The messages of `ranking.rating-changes` (CONTRACT.md "Transport"), as TypeScript types. The
// JSON Schema beside this file (rating-changes.schema.json) is their machine-readable form;
// the rating service writes them, the leaderboard reads them with `readRatingChanges`.
import type { GameResult, PeriodName } from './events.js';

/**
 * Why a rating moved, as the rating history shows it. The rating core's `Why` names each kind;
 * the wire promises only a `kind`, so a new kind never makes a reader drop a message.
 */
export interface ChangeReason {
  readonly kind: string;
}

/** One player's change: the rating before and after the event, and why. */
export interface RatingChange<Why extends ChangeReason = ChangeReason> {
  readonly player: string;
  readonly before: number;
  readonly after: number;
  readonly delta: number;
  readonly result: GameResult | null;
  readonly why: Why;
}

/**
 * A player's board fields right after an event: with the rating (`after`), the player's row on
 * the live board. A player with no games is on no board.
 */
export interface BoardStanding {
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  /** Games that could move the rating (RULES.md "rated game"): eligibility reads them. */
  readonly ratedGames: number;
  /** The rule set's level (xinbo-points); other rule sets keep their start value. */
  readonly level: number;
}

/** A skill estimate (ADR 19): the mean and the uncertainty on openskill's scale. */
export interface SkillEstimate {
  readonly mu: number;
  readonly sigma: number;
}

/**
 * A change as a message lists it: with the player's board standing right after the event, so
 * a reader can write the player's board row without reading it back, and the skill estimate
 * after the event when the event moved it (absent: the estimate is what it was).
 */
export interface ListedChange<Why extends ChangeReason = ChangeReason> extends RatingChange<Why> {
  readonly standing: BoardStanding;
  readonly skill?: SkillEstimate;
}

interface MessageHead {
  readonly eventId: string;
  readonly ladder: string;
  /** The event's place in its ladder's log. */
  readonly seq: number;
  /**
   * The `seq` of the ladder's previous message (0: none). Not every event has a message (void
   * games, rejections, a repeated close have none), so seqs have holes; a reader that applied a
   * message of a seq below this one has lost a message in between.
   */
  readonly previousSeq: number;
}

/** What a close was: given beside the id, so no reader takes it out of the id. */
interface CloseHead extends MessageHead {
  readonly type: 'period.closed';
  readonly period: PeriodName;
  readonly key: string;
}

/** A game, a correction or a penalty: every player it moved (few by nature). */
export interface EventChanges<Why extends ChangeReason = ChangeReason> extends MessageHead {
  readonly type: 'game.finished' | 'game.corrected' | 'player.penalized';
  readonly changes: readonly ListedChange<Why>[];
}

/** A close that moved few players: each of them. */
export interface CloseChanges<Why extends ChangeReason = ChangeReason> extends CloseHead {
  readonly changes: readonly ListedChange<Why>[];
}

/** A close that moved more players than a message lists: how many. */
export interface CloseSummary extends CloseHead {
  readonly summary: true;
  readonly moved: number;
}

/**
 * An annulment (RULES.md "Annulment"): the ladder was folded again from the annulled games on,
 * so any number of players moved; always a summary, with the annulled player.
 */
export interface AnnulmentSummary extends MessageHead {
  readonly type: 'player.annulled';
  readonly player: string;
  readonly summary: true;
  readonly moved: number;
}

/** One message of `ranking.rating-changes`: one per applied event. */
export type RatingChangesMessage<Why extends ChangeReason = ChangeReason> =
  EventChanges<Why> | CloseChanges<Why> | CloseSummary | AnnulmentSummary;
