import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { StandingsReader, type StandingRow } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { APPLIED_SEQ, BoardStore, type SequencedChange } from '@ranking/redis';
import { Metrics } from '../ops/metrics.js';
import { LADDERS } from '../tokens.js';
import { boardDateOfClose, DAILY_BOARDS_KEPT, dayNumber } from './board-dates.js';
import { boardEntry, hasBoard, memberChange } from './board-row.js';
import type { LiveChange } from './rating-change-message.js';

/** Rows read from PostgreSQL per round trip while loading a board. */
const PAGE = 50_000;
/**
 * How long a claimed rebuild of one ladder may take before another instance may take it over
 * (a ladder of a million players builds in well under this).
 */
const REBUILD_CLAIM_MS = 120_000;
export const LIVE = 'live';

/**
 * Loads boards from PostgreSQL into Redis, and keeps the live board in step with the rating
 * changes from the messages alone (ADR 25). Every change goes through one queue, so a rebuild
 * and the live updates never interleave.
 */
@Injectable()
export class BoardBuilder {
  private readonly logger = new Logger(BoardBuilder.name);
  /** Whose claim a rebuild holds: this process. */
  private readonly instance = `${hostname()}:${process.pid}:${randomUUID()}`;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly store: BoardStore,
    private readonly reader: StandingsReader,
    private readonly metrics: Metrics,
  ) {}

  /** Runs the task after every task queued before it. */
  serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The daily board of a close: that day's frozen standings, then the switch; old days trimmed. */
  async buildDaily(ladder: LadderConfig, key: string): Promise<void> {
    const date = boardDateOfClose(key);
    await this.load(ladder, date, (after) => this.reader.dailyPage(ladder.id, key, after, PAGE), {
      asOf: key,
      dayScore: dayNumber(date),
    });
    const newest = (await this.store.days(ladder.id))[0] ?? date;
    await this.store.trimDays(ladder.id, dayNumber(newest) - DAILY_BOARDS_KEPT + 1);
  }

  /**
   * The live board from PostgreSQL. The ladder's log position is read first and kept as the
   * board's seq: the rows read after it hold every event up to it, so a message up to it is
   * a duplicate, and one after it applies on top.
   */
  async buildLive(ladder: LadderConfig): Promise<void> {
    const position = await this.reader.ladderPosition(ladder.id);
    await this.load(ladder, LIVE, (after) => this.reader.livePage(ladder.id, after, PAGE), {
      asOf: new Date().toISOString(),
      dayScore: null,
      seq: position,
    });
  }

  /**
   * Applies a ladder's messages, in their order, to its live board from their contents alone:
   * each once (by seq), the board's rows and seq together. A summary, or a message after a lost
   * one, makes it read the board from PostgreSQL instead (after a lost message, the missing
   * daily boards too: the lost one may have been a daily close); the read covers that message,
   * published after its event was committed, and the messages after it apply on top.
   */
  async applyLive(ladder: LadderConfig, changes: readonly LiveChange[]): Promise<void> {
    if (!hasBoard(ladder)) return;
    let rest: SequencedChange[] = changes.map((c) => ({
      seq: c.seq,
      previousSeq: c.previousSeq,
      members: c.changes?.map((change) => memberChange(change, ladder)) ?? null,
    }));
    while (rest.length > 0) {
      const outcome = await this.store.applyInOrder(ladder.id, LIVE, rest);
      // No live board yet: the rebuild that loads it is due, and covers these messages.
      if (outcome.kind === 'missing') return;
      this.metrics.liveMessages.inc({ outcome: 'applied' }, outcome.applied);
      this.metrics.liveMessages.inc({ outcome: 'duplicate' }, outcome.duplicates);
      if (outcome.kind === 'done') return;
      const at = rest[outcome.index]!;
      this.metrics.liveReads.inc({ reason: outcome.kind === 'gap' ? 'gap' : 'summary' });
      if (outcome.kind === 'gap') {
        this.logger.warn(
          `${ladder.id}: a message before seq ${at.seq} (after seq ${at.previousSeq}) never reached the live board: reading the ladder from PostgreSQL`,
          { ladder: ladder.id, seq: at.seq, previousSeq: at.previousSeq },
        );
        await this.catchUp(ladder);
      } else await this.buildLive(ladder);
      rest = rest.slice(outcome.index + 1);
    }
  }

  /** The live board, and every kept daily board not built yet, from PostgreSQL. */
  private async catchUp(ladder: LadderConfig): Promise<void> {
    await this.buildLive(ladder);
    const keys = await this.reader.dailyCloses(ladder.id, DAILY_BOARDS_KEPT);
    for (const key of keys.reverse())
      if (!(await this.dailyBuilt(ladder.id, key))) await this.buildDaily(ladder, key);
  }

  /** A daily board is frozen: built once, or older than the kept window, it needs no work. */
  async dailyBuilt(ladder: string, key: string): Promise<boolean> {
    const date = boardDateOfClose(key);
    if ((await this.store.meta(ladder, date))?.asOf === key) return true;
    const newest = (await this.store.days(ladder))[0];
    return newest !== undefined && dayNumber(date) <= dayNumber(newest) - DAILY_BOARDS_KEPT;
  }

  /** The ids of the ladders that have boards (whose ready markers the keeper watches). */
  get boardLadders(): string[] {
    return [...this.ladders.values()].filter(hasBoard).map((l) => l.id);
  }

  /**
   * These ladders' boards from PostgreSQL, each ladder marked ready once its boards are loaded
   * (in a cluster a node may lose only the ladders it holds).
   */
  async rebuild(ids: readonly string[]): Promise<void> {
    const started = Date.now();
    const built: string[] = [];
    for (const id of ids) {
      const ladder = this.ladders.get(id);
      if (!ladder || !hasBoard(ladder)) continue;
      // Another instance on this Redis is rebuilding it: its ready marker will tell.
      if (!(await this.store.claimRebuild(id, this.instance, REBUILD_CLAIM_MS))) continue;
      try {
        // The claim is free again once another instance has finished: a ladder found missing
        // before this loop reached it may be ready by now, and must not be built twice.
        if ((await this.store.unready([id])).length === 0) continue;
        await this.buildLive(ladder);
        const keys = await this.reader.dailyCloses(ladder.id, DAILY_BOARDS_KEPT);
        for (const key of keys.reverse()) await this.buildDaily(ladder, key);
        await this.store.markReady(ladder.id);
        this.metrics.rebuilds.inc();
        built.push(id);
      } finally {
        await this.store.releaseRebuild(id, this.instance).catch(() => undefined);
      }
    }
    if (built.length > 0)
      this.logger.log(
        `boards of ${built.length} ladders rebuilt from PostgreSQL in ${Date.now() - started} ms`,
        { ladders: built },
      );
  }

  private async load(
    ladder: LadderConfig,
    board: string,
    page: (after: string | null) => Promise<StandingRow[]>,
    { asOf, dayScore, seq }: { asOf: string; dayScore: number | null; seq?: number },
  ): Promise<void> {
    const timer = this.metrics.boardBuild.startTimer({
      ladder: ladder.id,
      view: board === LIVE ? 'live' : 'daily',
    });
    const build = this.store.build(ladder.id, board);
    const started = Date.now();
    let waited = 0;
    let count = 0;
    try {
      let after: string | null = null;
      // Reading the next page overlaps writing this one.
      const read = (from: string | null) => {
        const pending = page(from);
        pending.catch(() => undefined); // awaited below; this only keeps an early failure handled
        return pending;
      };
      let next = read(after);
      // Redis stores one page while this process reads and encodes the next.
      let writing: Promise<void> = Promise.resolve();
      for (;;) {
        const before = Date.now();
        const rows = await next;
        waited += Date.now() - before;
        if (rows.length === 0) break;
        count += rows.length;
        after = rows[rows.length - 1]!.player;
        next = rows.length < PAGE ? Promise.resolve([]) : read(after);
        const entries = rows.map((r) => boardEntry(r, ladder));
        await writing;
        writing = build.add(entries);
        writing.catch(() => undefined); // awaited on the next round or below
      }
      await writing;
      const meta: Record<string, string | number> = { asOf, builtAt: new Date().toISOString() };
      if (seq !== undefined) meta[APPLIED_SEQ] = seq;
      await build.commit(meta, dayScore);
      const took = Date.now() - started;
      if (took > 1_000)
        this.logger.log(
          `${ladder.id} ${board}: ${count} players in ${took} ms (${waited} ms waiting for PostgreSQL)`,
        );
    } catch (error) {
      await build.abort().catch(() => undefined);
      throw error;
    } finally {
      timer();
    }
  }
}
