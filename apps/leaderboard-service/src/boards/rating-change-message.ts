/** What one rating-changes message asks of the boards. */
export type BoardWork =
  | { readonly kind: 'players'; readonly ladder: string; readonly players: readonly string[] }
  | { readonly kind: 'live'; readonly ladder: string }
  | { readonly kind: 'daily'; readonly ladder: string; readonly key: string };

interface Message {
  eventId?: unknown;
  ladder?: unknown;
  type?: unknown;
  summary?: unknown;
  period?: unknown;
  key?: unknown;
  changes?: unknown;
}

/** `period.closed:<ladder>:<period>:<key>` (CONTRACT.md): the close a message without `key` names. */
const CLOSE_ID = /^period\.closed:(.+):(daily|weekly|monthly):([^:]+)$/;

/**
 * The board work for one message of `ranking.rating-changes`: the players whose rows moved, or
 * the whole live board when a close moved too many to list, plus the daily board of a daily
 * close. Returns a reason string for a message that is not one of ours.
 */
export function boardWork(text: string): BoardWork[] | string {
  let message: Message;
  try {
    message = JSON.parse(text) as Message;
  } catch {
    return 'invalid JSON';
  }
  if (typeof message !== 'object' || message === null) return 'not an object';
  const { ladder, type } = message;
  if (typeof ladder !== 'string' || typeof type !== 'string') return 'no ladder or type';
  const work: BoardWork[] = [];
  if (message.summary === true) work.push({ kind: 'live', ladder });
  else if (Array.isArray(message.changes)) {
    const players = message.changes.flatMap((c: unknown) =>
      typeof c === 'object' && c !== null && typeof (c as { player?: unknown }).player === 'string'
        ? [(c as { player: string }).player]
        : [],
    );
    if (players.length > 0) work.push({ kind: 'players', ladder, players });
  } else return 'neither changes nor a summary';
  if (type === 'period.closed') {
    const fromId = typeof message.eventId === 'string' ? CLOSE_ID.exec(message.eventId) : null;
    const period = typeof message.period === 'string' ? message.period : fromId?.[2];
    const key = typeof message.key === 'string' ? message.key : fromId?.[3];
    if (period === 'daily' && key !== undefined) work.push({ kind: 'daily', ladder, key });
  }
  return work;
}
