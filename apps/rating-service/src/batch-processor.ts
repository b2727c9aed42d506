import {
  type LadderEvent,
  type PeriodClosed,
  type PlayerAnnulled,
  parseEvent,
  type ParseOutcome,
  TOPICS,
} from '@ranking/contracts';
import { type OutcomeCount, OutcomeTally } from '@ranking/kafka';
import {
  deadLetterOf,
  type HistoryRow,
  type LadderCounters,
  EventStoreRepository,
  GameRepository,
  HistoryRepository,
  LadderCounterRepository,
  PendingAnnulmentRepository,
  PeriodRepository,
  PlayerRepository,
  VoidGameRepository,
  MessageLog,
  type OutboxHandoff,
  type RawMessage,
  type Sql,
  unprocessable,
} from '@ranking/persistence';
import {
  closedPeriodKey,
  type LadderConfig,
  LadderFold,
  RATING_CHANGES_SUMMARY_OVER,
  ReplayEngine,
} from '@ranking/rating';
import { BatchWrites, historyRows } from './batch-writes.js';
import { segmentRows } from './segment-rows.js';

/** Players read per page when a close touches the whole ladder. */
export const CLOSE_PAGE = 20_000;

export interface BatchResult {
  readonly accepted: number;
  readonly duplicates: number;
  readonly rejected: number;
  /** The same by outcome: applied, void (accepted, but the rules void it), duplicate, rejected by reason. */
  readonly outcomes: readonly OutcomeCount[];
}

/** A message with its parse, done once per message. */
interface Parsed {
  readonly message: RawMessage;
  readonly outcome: ParseOutcome;
}

/** The batch's ladders' counters (locked) and the ids it has seen. */
interface BatchState {
  readonly known: Set<string>;
  readonly counters: Map<string, LadderCounters>;
  accepted: number;
  duplicates: number;
}

/**
 * Folds one batch of ladder-event messages into PostgreSQL through the rating core, inside the
 * caller's transaction, in four steps: parse each message once, find the ids already stored,
 * apply (segments of messages through the offline replay's ReplayEngine restored from the rows
 * they read; a period close page by page; an annulment left pending for the refold thread, ADR
 * 24), then write what it decided set-based, with its messages in the outbox.
 */
export class BatchProcessor {
  private readonly repos;
  private readonly log: MessageLog;

  constructor(
    sql: Sql,
    private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly topics: { ratingChanges: string; deadLetter: string } = TOPICS,
    /** Where the service's relay picks up what the batch enqueues (see OutboxHandoff). */
    handoff?: OutboxHandoff,
  ) {
    this.repos = {
      annulments: new PendingAnnulmentRepository(sql),
      counters: new LadderCounterRepository(sql),
      events: new EventStoreRepository(sql),
      games: new GameRepository(sql),
      history: new HistoryRepository(sql),
      periods: new PeriodRepository(sql),
      players: new PlayerRepository(sql),
      voids: new VoidGameRepository(sql),
    };
    this.log = new MessageLog(sql, handoff);
  }

  async process(messages: readonly RawMessage[]): Promise<BatchResult> {
    const parsed = parse(messages);
    const state = await this.dedupe(parsed);
    const writes = new BatchWrites(this.topics);
    await this.apply(parsed, state, writes);
    await this.write(writes, state);
    return tally(state, writes);
  }

  /** Step 2: the ids already stored, and the ladders' counters, locked for this transaction. */
  private async dedupe(parsed: readonly Parsed[]): Promise<BatchState> {
    const events = parsed.flatMap((p) => (p.outcome.ok ? [p.outcome.event] : []));
    const known = await this.repos.events.knownEventIds(events.map((e) => e.id));
    const counters = await this.repos.counters.lockLadders(
      events.flatMap((e) => (this.ladders.has(e.ladder) ? [e.ladder] : [])),
    );
    return { known, counters, accepted: 0, duplicates: 0 };
  }

  /**
   * Step 3: messages in order. A close touches every player and an annulment is left for the
   * refold thread: each is taken on its own, after the segment before it is folded.
   */
  private async apply(parsed: readonly Parsed[], state: BatchState, writes: BatchWrites) {
    let segment: Parsed[] = [];
    for (const item of parsed) {
      const event = item.outcome.ok ? item.outcome.event : null;
      const whole =
        event?.type === 'period.closed' || event?.type === 'player.annulled' ? event : null;
      if (whole && this.ladders.has(whole.ladder) && !state.known.has(whole.id)) {
        await this.foldSegment(segment, state, writes);
        segment = [];
        if (whole.type === 'period.closed') await this.close(whole, state, writes);
        else this.annul(whole, state, writes);
        state.known.add(whole.id);
        state.accepted++;
        continue;
      }
      segment.push(item);
    }
    await this.foldSegment(segment, state, writes);
  }

  /** Step 4: the batch's appends, its messages into the outbox, the ladders' counters. */
  private async write(writes: BatchWrites, state: BatchState): Promise<void> {
    await this.repos.events.appendEvents(writes.events);
    await this.repos.history.appendHistory(writes.history);
    await this.repos.voids.recordVoids(writes.voids);
    await this.repos.annulments.recordPendingAnnulments(writes.annulments);
    await this.log.recordRejected(writes.rejected);
    await this.log.enqueue(writes.outbox);
    await this.repos.counters.saveLadders(state.counters);
  }

  /** Folds messages that need no whole-ladder pass with a ReplayEngine restored from the rows they read. */
  private async foldSegment(messages: readonly Parsed[], state: BatchState, writes: BatchWrites) {
    if (messages.length === 0) return;
    const events = messages.flatMap(({ outcome }) => (outcome.ok ? [outcome.event] : []));
    const engine = ReplayEngine.restore(this.ladders, {
      simulate: false,
      skill: true,
      seen: [...state.known],
      ladders: await segmentRows(this.repos, this.ladders, events),
      clocks: [],
      rejected: [],
      voided: [],
    });
    for (const { message, outcome } of messages) {
      const result = engine.ingestParsed(outcome);
      switch (result.kind) {
        case 'duplicate':
          state.duplicates++;
          break;
        case 'rejected':
          writes.reject(message, result.id, result.reason, result.detail);
          break;
        case 'accepted': {
          state.accepted++;
          state.known.add(result.event.id);
          const { event, outcome: done } = result;
          const seq = this.accept(event, state, writes);
          if (done.status === 'void')
            writes.voids.push({
              ladder: event.ladder,
              seq,
              eventId: event.id,
              reason: done.reason,
            });
          else if (done.status === 'applied') {
            const skill = new Map((done.skill ?? []).map((s) => [s.player, s]));
            writes.changes(
              event,
              seq,
              done.changes,
              engine.playersOf(event.ladder),
              skill,
              state.counters.get(event.ladder)!,
            );
          }
          break;
        }
        default: {
          const never: never = result;
          throw new Error(`unexpected ingest result ${JSON.stringify(never)}`);
        }
      }
    }
    // Only what the folds wrote since they were restored: players in one statement, games in another.
    const written = engine.changedRows();
    await this.repos.players.upsertPlayersOf(written.map((w) => [w.ladder, w.players, w.skills]));
    await this.repos.games.upsertGamesOf(written.map((w) => [w.ladder, w.games]));
  }

  /** An event the ladder takes: its place in the ladder's log, and its row in the store. */
  private accept(event: LadderEvent, state: BatchState, writes: BatchWrites): number {
    const c = state.counters.get(event.ladder)!;
    c.lastSeq += 1;
    c.accepted += 1;
    writes.events.push({ ladder: event.ladder, seq: c.lastSeq, event });
    return c.lastSeq;
  }

  /** A period close: every player of the ladder, page by page through the rule set's close. */
  private async close(event: PeriodClosed, state: BatchState, writes: BatchWrites) {
    const ladder = this.ladders.get(event.ladder)!;
    const seq = this.accept(event, state, writes);
    const closed = await this.repos.periods.closedPeriods(ladder.id);
    if (closed.has(closedPeriodKey(event.period, event.key))) return;
    const probe = new LadderFold(ladder);
    const window = probe.calendar.window(event.period, event.key);
    // History rows keep log order (their ids): what the batch folded so far goes first, then
    // the close's rows page by page, so a close of a million players never sits in memory.
    await this.repos.history.appendHistory(writes.history);
    writes.history = [];
    const shown: HistoryRow[] = [];
    let moved = 0;
    for (let after: string | null = null; probe.closeActs(event.period);) {
      const page = await this.repos.players.playersAfter(ladder.id, after, CLOSE_PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const fold = LadderFold.restore(ladder, {
        ladder: ladder.id,
        players: page,
        games: [],
        closed: [],
        accepted: 0,
      });
      const outcome = fold.close(window);
      const changes = outcome.status === 'applied' ? outcome.changes : [];
      await this.repos.players.upsertPlayers(ladder.id, fold.changedPlayers());
      const rows = historyRows(event, seq, changes, fold.players, new Map());
      await this.repos.history.appendHistory(rows);
      moved += changes.length;
      for (const row of rows) if (shown.length <= RATING_CHANGES_SUMMARY_OVER) shown.push(row);
    }
    await this.repos.periods.markClosed(ladder.id, event.period, event.key, seq);
    if (event.period === 'daily')
      await this.repos.periods.freezeDailyStandings(ladder.id, event.key);
    writes.message(event, seq, shown, moved, state.counters.get(event.ladder)!);
  }

  /**
   * An annulment: accepted into the store and left pending. The refold thread re-folds the
   * ladder beside the consumer and swaps it in (ADR 24), so the partition never waits for a
   * re-fold; until then the ladder goes on from its state without it.
   */
  private annul(event: PlayerAnnulled, state: BatchState, writes: BatchWrites): void {
    const seq = this.accept(event, state, writes);
    writes.annulments.push({ ladder: event.ladder, seq, eventId: event.id });
  }

  /**
   * A message that passed every check but fails on its own (the consumer protocol found it by
   * bisection): recorded and dead-lettered as `unprocessable` with the error, so its partition
   * moves on.
   */
  async setAside(message: RawMessage, error: unknown): Promise<void> {
    const rejected = unprocessable(message, error);
    await this.log.recordRejected([rejected]);
    await this.log.enqueue([deadLetterOf(rejected, this.topics.deadLetter)]);
  }
}

/** Step 1: each message parsed once (size, JSON, schema). */
const parse = (messages: readonly RawMessage[]): Parsed[] =>
  messages.map((message) => ({ message, outcome: parseEvent(message.value) }));

function tally(state: BatchState, writes: BatchWrites): BatchResult {
  const tally = new OutcomeTally();
  tally.add('applied', state.accepted - writes.voids.length);
  tally.add('void', writes.voids.length);
  tally.add('duplicate', state.duplicates);
  for (const r of writes.rejected) tally.add('rejected', 1, r.reason);
  return {
    accepted: state.accepted,
    duplicates: state.duplicates,
    rejected: writes.rejected.length,
    outcomes: tally.list(),
  };
}
