import {
  isBlankLine,
  type LadderEvent,
  type RejectionCode,
  type VoidReason,
  parseEvent,
  type ParseOutcome,
} from '@ranking/contracts';
import { IdIndex } from './id-index.js';
import { dueCloses, openingWindows, periodClosedEvent } from './close-schedule.js';
import { disconnectPenaltyEvent } from './disconnect-tally.js';
import type { LadderConfig } from './ladder-config.js';
import {
  eventInstant,
  type GameRow,
  LadderFold,
  type LadderOutcome,
  type LadderSnapshot,
} from './ladder-fold.js';
import type { PlayerState } from './player-state.js';
import type { SkillState } from './skill-book.js';
import type { PeriodWindow } from './period-clock.js';
import { renderStandings } from './standings.js';

export interface ReplayOptions {
  /** Play the maintenance service: close periods as time passes, penalize disconnects. */
  readonly simulate: boolean;
  /**
   * The ladders whose log the engine keeps, so that a `player.annulled` can re-fold them (all by
   * default). A log costs memory: a caller that knows which ladders will see an annulment (the
   * CLI scans the file first) names them; an annulment of any other ladder fails with an error.
   */
  readonly keepLogs?: 'all' | ReadonlySet<string>;
  /** Keep each ladder's skill estimate beside the official fold (`ranking replay --skill`). */
  readonly skill?: boolean;
}

export interface ListedEvent {
  readonly id: string | null;
  readonly reason: RejectionCode | VoidReason;
}

/** What happened to one input line or message. */
export type IngestResult =
  | { readonly kind: 'skipped' }
  | { readonly kind: 'duplicate'; readonly id: string }
  | {
      readonly kind: 'rejected';
      readonly id: string | null;
      readonly reason: RejectionCode;
      readonly detail: string;
    }
  | { readonly kind: 'accepted'; readonly event: LadderEvent; readonly outcome: LadderOutcome };

export interface ReplaySnapshot {
  readonly simulate: boolean;
  /** The ladders whose log a new fold keeps; none when absent (a fold restored from rows). */
  readonly keepLogs?: 'all' | readonly string[];
  readonly skill?: boolean;
  readonly seen: readonly string[];
  readonly ladders: readonly LadderSnapshot[];
  readonly clocks: readonly { ladder: string; windows: readonly PeriodWindow[] }[];
  readonly rejected: readonly ListedEvent[];
  readonly voided: readonly ListedEvent[];
}

/** What an engine restored from rows wrote to one ladder (`changedRows`). */
export interface LadderWrites {
  readonly ladder: string;
  readonly players: readonly PlayerState[];
  /** The ladder's estimates, for the written players' rows. */
  readonly skills: ReadonlyMap<string, SkillState>;
  readonly games: readonly GameRow[];
}

/** A ladder's simulated clock: the next open window of each period it closes. */
type Clock = Map<PeriodWindow['period'], PeriodWindow>;

function earliestClose(windows: Iterable<PeriodWindow>): number {
  let earliest = Infinity;
  for (const w of windows) earliest = Math.min(earliest, w.closesAt);
  return earliest;
}

/**
 * The offline fold of a whole log across ladders (CONTRACT.md "offline replay"): ids are
 * remembered only for accepted events, each ladder folds its own events in log order.
 */
export class ReplayEngine {
  private readonly folds = new Map<string, LadderFold>();
  private readonly clocks = new Map<string, Clock>();
  /** Per ladder, the earliest close of its clock: what each event is compared with. */
  private readonly nextCloses = new Map<string, number>();
  /** The accepted events' ids: compact, since a replay keeps a million (see IdIndex). */
  private readonly seen = new IdIndex();
  readonly rejected: ListedEvent[] = [];
  readonly voided: ListedEvent[] = [];

  constructor(
    private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly options: ReplayOptions = { simulate: false },
  ) {}

  /** The engine's whole state as plain data (JSON-safe): resume a log from here with `restore`. */
  snapshot(): ReplaySnapshot {
    const keepLogs = this.options.keepLogs ?? 'all';
    return {
      simulate: this.options.simulate,
      keepLogs: keepLogs === 'all' ? 'all' : [...keepLogs],
      ...(this.options.skill === true ? { skill: true } : {}),
      seen: Array.from({ length: this.seen.size }, (_, n) => this.seen.idOf(n)),
      ladders: [...this.folds.values()].map((f) => f.snapshot()),
      clocks: [...this.clocks].map(([ladder, clock]) => ({ ladder, windows: [...clock.values()] })),
      rejected: [...this.rejected],
      voided: [...this.voided],
    };
  }

  static restore(
    ladders: ReadonlyMap<string, LadderConfig>,
    snapshot: ReplaySnapshot,
  ): ReplayEngine {
    const keepLogs = snapshot.keepLogs;
    const engine = new ReplayEngine(ladders, {
      simulate: snapshot.simulate,
      keepLogs: keepLogs === 'all' ? 'all' : new Set(keepLogs ?? []),
      skill: snapshot.skill === true,
    });
    for (const id of snapshot.seen) engine.seen.add(id);
    for (const s of snapshot.ladders) {
      const ladder = ladders.get(s.ladder);
      if (!ladder) throw new Error(`snapshot has ladder ${s.ladder}, which is not configured`);
      engine.folds.set(s.ladder, LadderFold.restore(ladder, s));
    }
    for (const c of snapshot.clocks) engine.setClock(c.ladder, c.windows);
    engine.rejected.push(...snapshot.rejected);
    engine.voided.push(...snapshot.voided);
    return engine;
  }

  /** One NDJSON line, as text or as the file's bytes (which must be UTF-8); blank lines are skipped. */
  ingestLine(line: string | Uint8Array): IngestResult {
    if (isBlankLine(line)) return { kind: 'skipped' };
    return this.ingestParsed(parseEvent(line));
  }

  /** A line or message already parsed (a message is never blank: empty is invalid JSON there). */
  ingestParsed(parsed: ParseOutcome): Exclude<IngestResult, { kind: 'skipped' }> {
    if (!parsed.ok)
      return this.rejectWith(parsed.id, parsed.rejection.code, parsed.rejection.detail);
    return this.ingest(parsed.event);
  }

  /** One schema-valid event. */
  ingest(event: LadderEvent): Exclude<IngestResult, { kind: 'skipped' }> {
    if (this.seen.find(event.id) >= 0) return { kind: 'duplicate', id: event.id };
    const fold = this.foldOf(event.ladder);
    if (!fold) return this.rejectWith(event.id, 'unknown-ladder', `no ladder ${event.ladder}`);
    if (this.options.simulate) {
      const at = eventInstant(event, fold.calendar);
      if (this.closesDue(fold, at)) {
        // A rejected event must not move the clock: check before closing anything.
        const rejection = fold.rejectionOf(event);
        if (rejection) return this.rejectWith(event.id, rejection.code, rejection.detail);
        this.advanceClock(fold, at);
      } else if (!this.clocks.has(fold.ladder.id)) {
        const rejection = fold.rejectionOf(event);
        if (rejection) return this.rejectWith(event.id, rejection.code, rejection.detail);
        this.startClock(fold, at);
      }
    }
    return this.apply(fold, event);
  }

  /** Folds an event past the clock: input events after their closes, and simulated ones. */
  private apply(fold: LadderFold, event: LadderEvent): Exclude<IngestResult, { kind: 'skipped' }> {
    const outcome = fold.evolve(event);
    if (outcome.status === 'rejected') {
      return this.rejectWith(event.id, outcome.rejection.code, outcome.rejection.detail);
    }
    this.seen.add(event.id);
    if (outcome.status === 'void') this.voided.push({ id: event.id, reason: outcome.reason });
    if (this.options.simulate && outcome.status === 'applied' && event.type === 'game.finished') {
      for (const { player, ordinal } of outcome.disconnectPenalties) {
        const penalty = disconnectPenaltyEvent(fold.ladder, player, ordinal, event.finishedAt);
        if (this.seen.find(penalty.id) < 0) this.apply(fold, penalty);
      }
    }
    return { kind: 'accepted', event, outcome };
  }

  /** End of input: with --simulate, close every period up to `until` (epoch ms). */
  finish(until: number | null): void {
    if (!this.options.simulate || until === null) return;
    for (const fold of this.folds.values()) {
      if (this.clocks.has(fold.ladder.id)) this.advanceClock(fold, until);
    }
  }

  /** A ladder's players as folded so far (read them between events: folds change them in place). */
  playersOf(ladder: string): ReadonlyMap<string, PlayerState> {
    return this.folds.get(ladder)?.players ?? new Map<string, PlayerState>();
  }

  /**
   * For an engine restored from stored rows: per ladder, what its folds wrote since, as the
   * rows to write back (players with their estimates, game rows).
   */
  changedRows(): LadderWrites[] {
    return [...this.folds.values()].map((fold) => ({
      ladder: fold.ladder.id,
      players: fold.changedPlayers(),
      skills: fold.skill?.players ?? new Map<string, SkillState>(),
      games: fold.changedGameRows(),
    }));
  }

  /** The ladders that have folded at least one accepted event, by id. */
  get ladderFolds(): ReadonlyMap<string, LadderFold> {
    return this.folds;
  }

  /** The contract's output, as chunks of JSON text (one player a line), byte-for-byte repeatable. */
  render(): Generator<string> {
    const folds = [...this.folds.values()].filter((f) => f.accepted > 0);
    return renderStandings(folds, this.rejected, this.voided);
  }

  private rejectWith(
    id: string | null,
    reason: RejectionCode,
    detail: string,
  ): Exclude<IngestResult, { kind: 'skipped' }> {
    this.rejected.push({ id, reason });
    return { kind: 'rejected', id, reason, detail };
  }

  private foldOf(ladderId: string): LadderFold | undefined {
    let fold = this.folds.get(ladderId);
    if (!fold) {
      const ladder = this.ladders.get(ladderId);
      if (!ladder) return undefined;
      const keepLogs = this.options.keepLogs ?? 'all';
      fold = new LadderFold(ladder, {
        keepLog: keepLogs === 'all' || keepLogs.has(ladderId),
        skill: this.options.skill === true,
      });
      this.folds.set(ladderId, fold);
    }
    return fold;
  }

  private startClock(fold: LadderFold, at: number): void {
    this.setClock(fold.ladder.id, openingWindows(fold.rules, fold.calendar, at));
  }

  private setClock(ladder: string, windows: readonly PeriodWindow[]): void {
    this.clocks.set(ladder, new Map(windows.map((w) => [w.period, w])));
    this.nextCloses.set(ladder, earliestClose(windows));
  }

  private closesDue(fold: LadderFold, at: number): boolean {
    const next = this.nextCloses.get(fold.ladder.id);
    return next !== undefined && next <= at;
  }

  /** Closes, oldest first (weekly, monthly, daily at one instant), every window ending by `at`. */
  private advanceClock(fold: LadderFold, at: number): void {
    const clock = this.clocks.get(fold.ladder.id)!;
    const { due, open } = dueCloses([...clock.values()], fold.calendar, at);
    // Set in place: the clock keeps its period order, which snapshots write out.
    for (const w of open) clock.set(w.period, w);
    this.nextCloses.set(fold.ladder.id, earliestClose(clock.values()));
    for (const w of due) {
      const close = periodClosedEvent(fold.ladder.id, fold.calendar, w);
      if (this.seen.find(close.id) < 0) this.apply(fold, close);
    }
  }
}
