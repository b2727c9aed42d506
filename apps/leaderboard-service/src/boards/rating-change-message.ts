import {
  type ListedChange,
  readRatingChanges,
  type RatingChangesMessage,
} from '@ranking/contracts';

/**
 * What one message asks of the live board, in its ladder's order of messages: the listed
 * players' rows as the message gives them, or (`changes` null) a read of the whole board from
 * PostgreSQL, for a summary that lists nobody.
 */
export interface LiveChange {
  readonly seq: number;
  readonly previousSeq: number;
  readonly changes: readonly ListedChange[] | null;
}

/** What one rating-changes message asks of the boards. */
export type BoardWork =
  | { readonly kind: 'live'; readonly ladder: string; readonly change: LiveChange }
  | { readonly kind: 'daily'; readonly ladder: string; readonly key: string };

/**
 * The board work for one message of `ranking.rating-changes` (the contract's schema checks it):
 * its part of the live board (the listed players' rows, or the whole board when a close moved
 * too many to list or an annulment re-folded the ladder), plus the daily board of a daily close
 * (named by the message's period and key, never by its event id). Returns the reason when the
 * message cannot be read.
 */
export function boardWork(raw: string | Uint8Array | null): BoardWork[] | string {
  const read = readRatingChanges(raw);
  return read.ok ? workOf(read.message) : read.reason;
}

function workOf(message: RatingChangesMessage): BoardWork[] {
  const { ladder, seq, previousSeq } = message;
  const live = (changes: readonly ListedChange[] | null): BoardWork => ({
    kind: 'live',
    ladder,
    change: { seq, previousSeq, changes },
  });
  switch (message.type) {
    case 'game.finished':
    case 'game.corrected':
    case 'player.penalized':
      return [live(message.changes)];
    case 'period.closed': {
      const moved = live('summary' in message ? null : message.changes);
      return message.period === 'daily'
        ? [moved, { kind: 'daily', ladder, key: message.key }]
        : [moved];
    }
    // Past daily boards are frozen standings, which an annulment leaves as they were.
    case 'player.annulled':
      return [live(null)];
    default: {
      const never: never = message;
      throw new Error(`unknown rating-changes message ${JSON.stringify(never)}`);
    }
  }
}
