import {
  type LadderEvent,
  type PeriodClosed,
  type PlayerAnnulled,
  parseEvent,
  type ParseOutcome,
  TOPICS,
} from '@ranking/contracts';
import {
  decodeSkillGame,
  type GameRow,
  type LadderConfig,
  LadderFold,
  type LadderOutcome,
  type Skill,
  type SkillGame,
  type SkillState,
  type GameRecord,
  type PlayerChange,
  type PlayerState,
  decodeRecord,
  RATING_CHANGES_SUMMARY_OVER,
  ratingChangeMessage,
  ReplayEngine,
} from '@ranking/rating';
import { type OutcomeCount, OutcomeTally } from '@ranking/kafka';
import {
  boardStandingOf,
  deadLetterOf,
  type HistoryRow,
  type LadderCounters,
  LadderRepository,
  MessageLog,
  type OutboxHandoff,
  type OutboxMessage,
  type RawMessage,
  type RejectedMessage,
  type Sql,
  type StoredEvent,
  unprocessable,
} from '@ranking/persistence';
import { applyAnnulment } from './ladder-refold.js';

/** A game's saved skill estimates with its id, as a skill snapshot lists them. */
type SkillGameRow = SkillGame & { readonly id: string };

/** Players read per page when a close touches the whole ladder. */
export const CLOSE_PAGE = 20_000;

export interface BatchResult {
  readonly accepted: number;
  readonly duplicates: number;
  readonly rejected: number;
  /** The same by outcome: applied, void (accepted, but the rules void it), duplicate, rejected by reason. */
  readonly outcomes: readonly OutcomeCount[];
}

interface Pending {
  events: StoredEvent[];
  history: HistoryRow[];
  voids: { ladder: string; seq: number; eventId: string; reason: string }[];
  rejected: RejectedMessage[];
  outbox: OutboxMessage[];
}

/** A message with its parse, done once per message. */
interface Parsed {
  readonly message: RawMessage;
  readonly outcome: ParseOutcome;
}

/**
 * Folds one batch of ladder-event messages into PostgreSQL through the rating core, inside the
 * caller's transaction: reads the state the batch needs in a few queries, runs the same
 * ReplayEngine the offline replay uses, and writes the results set-based. A period close,
 * which touches every player of a ladder, is applied page by page between segments.
 */
export class BatchProcessor {
  private readonly repo: LadderRepository;
  private readonly log: MessageLog;

  constructor(
    private readonly sql: Sql,
    private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly topics: { ratingChanges: string; deadLetter: string } = TOPICS,
    /** Where the service's relay picks up what the batch enqueues (see OutboxHandoff). */
    handoff?: OutboxHandoff,
  ) {
    this.repo = new LadderRepository(sql);
    this.log = new MessageLog(sql, handoff);
  }

  async process(messages: readonly RawMessage[]): Promise<BatchResult> {
    const parsed = messages.map((m) => ({ message: m, outcome: parseEvent(m.value) }));
    const ids = parsed.flatMap((p) => (p.outcome.ok ? [p.outcome.event.id] : []));
    const known = await this.repo.knownEventIds(ids);
    const ladderIds = parsed.flatMap((p) =>
      p.outcome.ok && this.ladders.has(p.outcome.event.ladder) ? [p.outcome.event.ladder] : [],
    );
    const counters = await this.repo.lockLadders(ladderIds);
    const pending: Pending = { events: [], history: [], voids: [], rejected: [], outbox: [] };
    let accepted = 0;
    let duplicates = 0;
    let segment: Parsed[] = [];
    const flush = async () => {
      if (segment.length === 0) return;
      const result = await this.foldSegment(segment, known, counters, pending);
      accepted += result.accepted;
      duplicates += result.duplicates;
      segment = [];
    };
    for (const item of parsed) {
      const { outcome } = item;
      // A close touches every player and an annulment re-folds the whole ladder: each one
      // is applied on its own, after what came before it in the batch.
      const event = outcome.ok ? outcome.event : null;
      const whole =
        event?.type === 'period.closed' || event?.type === 'player.annulled' ? event : null;
      if (whole && this.ladders.has(whole.ladder) && !known.has(whole.id)) {
        await flush();
        if (whole.type === 'period.closed') await this.applyClose(whole, counters, pending);
        else await this.annul(whole, counters, pending);
        known.add(whole.id);
        accepted++;
        continue;
      }
      segment.push(item);
    }
    await flush();
    await this.repo.appendEvents(pending.events);
    await this.repo.appendHistory(pending.history);
    await this.repo.recordVoids(pending.voids);
    await this.log.recordRejected(pending.rejected);
    await this.log.enqueue(pending.outbox);
    await this.repo.saveLadders(counters);
    const tally = new OutcomeTally();
    tally.add('applied', accepted - pending.voids.length);
    tally.add('void', pending.voids.length);
    tally.add('duplicate', duplicates);
    for (const r of pending.rejected) tally.add('rejected', 1, r.reason);
    return { accepted, duplicates, rejected: pending.rejected.length, outcomes: tally.list() };
  }

  /** Folds messages that need no whole-ladder pass with a ReplayEngine restored from the rows they touch. */
  private async foldSegment(
    messages: readonly Parsed[],
    known: Set<string>,
    counters: Map<string, LadderCounters>,
    pending: Pending,
  ): Promise<{ accepted: number; duplicates: number }> {
    const events = messages.flatMap(({ outcome }) => (outcome.ok ? [outcome.event] : []));
    const snapshots = await this.loadSlices(events);
    const engine = ReplayEngine.restore(this.ladders, {
      simulate: false,
      skill: true,
      seen: [...known],
      ladders: snapshots.map((s) => s.snapshot),
      clocks: [],
      rejected: [],
      voided: [],
    });
    let accepted = 0;
    let duplicates = 0;
    for (const { message, outcome } of messages) {
      const result = engine.ingestParsed(outcome);
      switch (result.kind) {
        case 'duplicate':
          duplicates++;
          break;
        case 'rejected':
          this.reject(message, result.id, result.reason, result.detail, pending);
          break;
        case 'accepted': {
          accepted++;
          known.add(result.event.id);
          const ladder = result.event.ladder;
          const c = counters.get(ladder)!;
          c.lastSeq += 1;
          c.accepted += 1;
          pending.events.push({ ladder, seq: c.lastSeq, event: result.event });
          if (result.outcome.status === 'void') {
            pending.voids.push({
              ladder,
              seq: c.lastSeq,
              eventId: result.event.id,
              reason: result.outcome.reason,
            });
          } else if (result.outcome.status === 'applied') {
            const fold = engine.ladderFolds.get(ladder)!;
            this.recordChanges(result.event, c.lastSeq, result.outcome, fold.players, c, pending);
          }
          break;
        }
      }
    }
    // Every ladder's players in one statement and its game records in another: only what the
    // fold wrote since it was restored from the rows.
    const players: [string, PlayerState[], ReadonlyMap<string, SkillState>][] = [];
    const games: [string, GameRow[]][] = [];
    for (const loaded of snapshots) {
      const fold = engine.ladderFolds.get(loaded.snapshot.ladder)!;
      players.push([fold.ladder.id, fold.changedPlayers(), fold.skill!.players]);
      games.push([fold.ladder.id, fold.changedGameRows()]);
    }
    await this.repo.upsertPlayersOf(players);
    await this.repo.upsertGamesOf(games);
    return { accepted, duplicates };
  }

  /** The rows a segment's events read: their players, the games they correct, closed periods. */
  private async loadSlices(events: readonly LadderEvent[]) {
    const byLadder = new Map<string, LadderEvent[]>();
    for (const e of events) {
      if (!this.ladders.has(e.ladder)) continue;
      const list = byLadder.get(e.ladder);
      if (list) list.push(e);
      else byLadder.set(e.ladder, [e]);
    }
    const wanted = new Map<string, { records: GameRecord[]; skills: SkillGameRow[] }>();
    const playerIds = new Map<string, string[]>();
    for (const [ladderId, ladderEvents] of byLadder) {
      const fold = new LadderFold(this.ladders.get(ladderId)!);
      const gameIds = ladderEvents.flatMap((e) => (e.type === 'game.corrected' ? [e.gameId] : []));
      const games = await this.repo.loadGames(ladderId, gameIds);
      const records: GameRecord[] = [];
      const skills: SkillGameRow[] = [];
      for (const [id, stored] of games) {
        const record = decodeRecord(id, stored.record, fold.rules);
        records.push(record);
        if (stored.skill !== null) {
          const ids = record.players.map((p) => p.id);
          skills.push({ id, ...decodeSkillGame(stored.skill, ids) });
        }
      }
      const ids = new Set<string>();
      for (const e of ladderEvents) {
        if (e.type === 'game.finished') for (const p of e.players) ids.add(p.id);
        if (e.type === 'player.penalized') ids.add(e.player);
      }
      for (const r of records) for (const p of r.players) ids.add(p.id);
      wanted.set(ladderId, { records, skills });
      playerIds.set(ladderId, [...ids]);
    }
    // Every ladder's players in one query.
    const found = await this.repo.loadPlayersOf(playerIds);
    return [...wanted].map(([ladderId, { records, skills }]) => ({
      snapshot: {
        ladder: ladderId,
        players: found.get(ladderId)?.players ?? [],
        games: records,
        closed: [],
        accepted: 0,
        skill: { players: found.get(ladderId)?.skills ?? [], games: skills },
      },
    }));
  }

  /** An event the ladder takes whole: its place in the ladder's log, and its row in the store. */
  private accept(
    event: LadderEvent,
    counters: Map<string, LadderCounters>,
    pending: Pending,
  ): number {
    const c = counters.get(event.ladder)!;
    c.lastSeq += 1;
    c.accepted += 1;
    pending.events.push({ ladder: event.ladder, seq: c.lastSeq, event });
    return c.lastSeq;
  }

  /** A period close: every player of the ladder, page by page through the rule set's close. */
  private async applyClose(
    event: PeriodClosed,
    counters: Map<string, LadderCounters>,
    pending: Pending,
  ): Promise<void> {
    const ladder = this.ladders.get(event.ladder)!;
    const seq = this.accept(event, counters, pending);
    const closed = await this.repo.closedPeriods(ladder.id);
    if (closed.has(`${event.period}:${event.key}`)) return;
    const probe = new LadderFold(ladder);
    const window = probe.calendar.window(event.period, event.key);
    const acts = probe.rules.closePeriod !== undefined && probe.rules.closes.includes(event.period);
    // History rows keep log order (their ids): what the batch folded so far goes first, then
    // the close's rows page by page, so a close of a million players never sits in memory.
    await this.repo.appendHistory(pending.history);
    pending.history = [];
    const shown: HistoryRow[] = [];
    let moved = 0;
    let after: string | null = null;
    while (acts) {
      const page = await this.repo.playersAfter(ladder.id, after, CLOSE_PAGE);
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
      await this.repo.upsertPlayers(ladder.id, fold.changedPlayers());
      const rows = historyRows(event, seq, changes, fold.players, new Map());
      await this.repo.appendHistory(rows);
      moved += changes.length;
      for (const row of rows) if (shown.length <= RATING_CHANGES_SUMMARY_OVER) shown.push(row);
    }
    await this.repo.markClosed(ladder.id, event.period, event.key, seq);
    if (event.period === 'daily') await this.repo.freezeDailyStandings(ladder.id, event.key);
    this.publishChanges(event, seq, shown, moved, counters.get(event.ladder)!, pending);
  }

  /**
   * An annulment: the batch so far is written, so that the ladder's stored log ends with it,
   * then the ladder is re-folded from that log (ladder-refold.ts), with one history row per
   * player it moved and one summary message.
   */
  private async annul(
    event: PlayerAnnulled,
    counters: Map<string, LadderCounters>,
    pending: Pending,
  ): Promise<void> {
    const ladder = this.ladders.get(event.ladder)!;
    const seq = this.accept(event, counters, pending);
    await this.repo.appendEvents(pending.events);
    pending.events = [];
    await this.repo.appendHistory(pending.history);
    pending.history = [];
    const { changes, players, skill } = await applyAnnulment(this.sql, ladder, event);
    for (const row of historyRows(event, seq, changes, players, skill)) pending.history.push(row);
    this.publishChanges(event, seq, [], changes.length, counters.get(event.ladder)!, pending);
  }

  /**
   * An applied event's history rows (the players' board fields right after it, and how it moved
   * their estimates) and its rating-changes message.
   */
  private recordChanges(
    event: LadderEvent,
    seq: number,
    outcome: Extract<LadderOutcome, { status: 'applied' }>,
    players: ReadonlyMap<string, PlayerState>,
    ladder: LadderCounters,
    pending: Pending,
  ): void {
    const { changes } = outcome;
    const skill = new Map((outcome.skill ?? []).map((s) => [s.player, s]));
    const rows = historyRows(event, seq, changes, players, skill);
    for (const row of rows) pending.history.push(row);
    this.publishChanges(event, seq, rows, changes.length, ladder, pending);
  }

  /**
   * The rating-changes message of one event: its history rows' changes with the players' board
   * fields after it, or a summary when it moved many; named after the ladder's previous message.
   */
  private publishChanges(
    event: LadderEvent,
    seq: number,
    rows: readonly HistoryRow[],
    moved: number,
    ladder: LadderCounters,
    pending: Pending,
  ): void {
    const place = { seq, previousSeq: ladder.lastMessageSeq };
    ladder.lastMessageSeq = seq;
    pending.outbox.push({
      topic: this.topics.ratingChanges,
      key: event.ladder,
      value: JSON.stringify(ratingChangeMessage(event, place, rows, moved)),
      headers: { 'x-event-id': event.id },
    });
  }

  /** A rejected message is recorded with its reason and goes, unchanged, to the dead-letter topic. */
  private reject(
    message: RawMessage,
    eventId: string | null,
    reason: string,
    detail: string,
    pending: Pending,
  ): void {
    const rejected = { message, eventId, reason, detail };
    pending.rejected.push(rejected);
    pending.outbox.push(deadLetterOf(rejected, this.topics.deadLetter));
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

/**
 * An event's history rows: per change, the player's board fields right after the event (copied:
 * folds change their records in place) and how it moved their skill estimate, if it did.
 */
function historyRows(
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
