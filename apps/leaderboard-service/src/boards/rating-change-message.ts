import { readRatingChanges, type RatingChangesMessage } from '@ranking/contracts';

/** What one rating-changes message asks of the boards. */
export type BoardWork =
  | { readonly kind: 'players'; readonly ladder: string; readonly players: readonly string[] }
  | { readonly kind: 'live'; readonly ladder: string }
  | { readonly kind: 'daily'; readonly ladder: string; readonly key: string };

/**
 * The board work for one message of `ranking.rating-changes` (the contract's schema checks it):
 * the players whose rows moved, or the whole live board when a close moved too many to list or
 * an annulment re-folded the ladder, plus the daily board of a daily close (named by the
 * message's period and key, never by its event id). Returns the reason when the message cannot
 * be read.
 */
export function boardWork(raw: string | Uint8Array | null): BoardWork[] | string {
  const read = readRatingChanges(raw);
  return read.ok ? workOf(read.message) : read.reason;
}

function workOf(message: RatingChangesMessage): BoardWork[] {
  const { ladder } = message;
  const players = (changes: readonly { player: string }[]): BoardWork[] =>
    changes.length > 0 ? [{ kind: 'players', ladder, players: changes.map((c) => c.player) }] : [];
  switch (message.type) {
    case 'game.finished':
    case 'game.corrected':
    case 'player.penalized':
      return players(message.changes);
    case 'period.closed': {
      const moved =
        'summary' in message ? [{ kind: 'live', ladder } as const] : players(message.changes);
      return message.period === 'daily'
        ? [...moved, { kind: 'daily', ladder, key: message.key }]
        : moved;
    }
    // Past daily boards are frozen standings, which an annulment leaves as they were.
    case 'player.annulled':
      return [{ kind: 'live', ladder }];
    default: {
      const never: never = message;
      throw new Error(`unknown rating-changes message ${JSON.stringify(never)}`);
    }
  }
}
