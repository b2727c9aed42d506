import type { LadderEvent } from '@ranking/contracts';
import {
  boardStandingOf,
  deadLetterOf,
  type HistoryRow,
  type LadderCounters,
  type OutboxMessage,
  type RejectedMessage,
  type StoredEvent,
  type RawMessage,
} from '@ranking/persistence';
import {
  type MessagePlace,
  type PlayerChange,
  type PlayerState,
  ratingChangeMessage,
  type Skill,
} from '@ranking/rating';

/** What a batch writes once it has applied its messages, gathered in log order. */
export class BatchWrites {
  events: StoredEvent[] = [];
  history: HistoryRow[] = [];
  readonly voids: { ladder: string; seq: number; eventId: string; reason: string }[] = [];
  readonly rejected: RejectedMessage[] = [];
  readonly outbox: OutboxMessage[] = [];
  readonly annulments: { ladder: string; seq: number; eventId: string }[] = [];

  constructor(private readonly topics: { ratingChanges: string; deadLetter: string }) {}

  /** An applied event's history rows (the players' board fields right after it) and its message. */
  changes(
    event: LadderEvent,
    seq: number,
    changes: readonly PlayerChange[],
    players: ReadonlyMap<string, PlayerState>,
    skill: ReadonlyMap<string, { readonly before: Skill; readonly after: Skill }>,
    counters: LadderCounters,
  ): void {
    const rows = historyRows(event, seq, changes, players, skill);
    for (const row of rows) this.history.push(row);
    this.message(event, seq, rows, changes.length, counters);
  }

  /**
   * The rating-changes message of one event: its history rows' changes with the players' board
   * fields after it, or a summary when it moved many; named after the ladder's previous message.
   */
  message(
    event: LadderEvent,
    seq: number,
    rows: readonly HistoryRow[],
    moved: number,
    counters: LadderCounters,
  ): void {
    const place = { seq, previousSeq: counters.lastMessageSeq };
    counters.lastMessageSeq = seq;
    this.outbox.push({
      topic: this.topics.ratingChanges,
      key: event.ladder,
      value:
        event.type === 'period.closed' || event.type === 'player.annulled'
          ? JSON.stringify(ratingChangeMessage(event, place, rows, moved))
          : listedMessageText(event, place, rows),
      headers: { 'x-event-id': event.id },
    });
  }

  /** A rejected message is recorded with its reason and goes, unchanged, to the dead-letter topic. */
  reject(message: RawMessage, eventId: string | null, reason: string, detail: string): void {
    const rejected = { message, eventId, reason, detail };
    this.rejected.push(rejected);
    this.outbox.push(deadLetterOf(rejected, this.topics.deadLetter));
  }
}

/**
 * An event's history rows: per change, the player's board fields right after the event (copied:
 * folds change their records in place) and how it moved their skill estimate, if it did.
 */
export function historyRows(
  event: LadderEvent,
  seq: number,
  changes: readonly PlayerChange[],
  players: ReadonlyMap<string, PlayerState>,
  skill: ReadonlyMap<string, { readonly before: Skill; readonly after: Skill }>,
): HistoryRow[] {
  return changes.map((change) => ({
    ladder: event.ladder,
    seq,
    eventId: event.id,
    change,
    standing: boardStandingOf(players.get(change.player)!),
    skill: skill.get(change.player) ?? null,
  }));
}

/** A number as JSON writes it (not finite: null). */
const jsonNumber = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/**
 * `JSON.stringify(ratingChangeMessage(event, place, rows, …))` for an event whose message lists
 * its changes (a game, a correction, a penalty), written directly: each change is stringified
 * once and the board fields appended, instead of copying every change into a new object
 * (`listedChange`) and stringifying the whole message (a drain does this for every event).
 * The rating-changes contract spec checks that both write the same text.
 */
export function listedMessageText(
  event: LadderEvent,
  place: MessagePlace,
  rows: readonly Pick<HistoryRow, 'change' | 'standing' | 'skill'>[],
): string {
  const head = { eventId: event.id, ladder: event.ladder, ...place, type: event.type };
  let text = `${JSON.stringify(head).slice(0, -1)},"changes":[`;
  for (let i = 0; i < rows.length; i++) {
    const { change, standing: s, skill } = rows[i]!;
    // A change is a non-empty object without `standing` or `skill` members: they follow its own.
    if (i > 0) text += ',';
    text +=
      `${JSON.stringify(change).slice(0, -1)},"standing":{"games":${jsonNumber(s.games)}` +
      `,"wins":${jsonNumber(s.wins)},"losses":${jsonNumber(s.losses)},"draws":${jsonNumber(s.draws)}` +
      `,"ratedGames":${jsonNumber(s.ratedGames)},"level":${jsonNumber(s.level)}}`;
    if (skill !== null)
      text += `,"skill":{"mu":${jsonNumber(skill.after.mu)},"sigma":${jsonNumber(skill.after.sigma)}}`;
    text += '}';
  }
  return `${text}]}`;
}
