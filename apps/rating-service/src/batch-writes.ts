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
      value: JSON.stringify(ratingChangeMessage(event, place, rows, moved)),
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
