import { readRatingChangeMessage } from '@ranking/rating';

/** What one rating-changes message asks of the boards. */
export type BoardWork =
  | { readonly kind: 'players'; readonly ladder: string; readonly players: readonly string[] }
  | { readonly kind: 'live'; readonly ladder: string }
  | { readonly kind: 'daily'; readonly ladder: string; readonly key: string };

/**
 * The board work for one message of `ranking.rating-changes`: the players whose rows moved, or
 * the whole live board when a close moved too many to list, plus the daily board of a daily
 * close. Returns the reason when the message cannot be read.
 */
export function boardWork(text: string): BoardWork[] | string {
  const message = readRatingChangeMessage(text);
  if (typeof message === 'string') return message;
  const { ladder } = message;
  const work: BoardWork[] = [];
  if ('summary' in message) work.push({ kind: 'live', ladder });
  else if (message.changes.length > 0)
    work.push({ kind: 'players', ladder, players: message.changes.map((c) => c.player) });
  if (message.type === 'period.closed' && message.period === 'daily' && message.key !== undefined)
    work.push({ kind: 'daily', ladder, key: message.key });
  return work;
}
