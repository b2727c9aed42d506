import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { StandingsReader, type StandingRow } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { BoardStore } from '@ranking/redis';
import { Metrics } from '../ops/metrics.js';
import { LADDERS } from '../tokens.js';
import { boardDateOfClose, DAILY_BOARDS_KEPT, dayNumber } from './board-dates.js';
import { boardEntry, hasBoard } from './board-row.js';

/** Rows read from PostgreSQL per round trip while loading a board. */
const PAGE = 50_000;
/**
 * How long a claimed rebuild of one ladder may take before another instance may take it over
 * (a ladder of a million players builds in well under this).
 */
const REBUILD_CLAIM_MS = 120_000;
export const LIVE = 'live';

/**
 * Loads boards from PostgreSQL into Redis. Every change goes through one queue, so a rebuild
 * and the live updates never interleave (an update after a rebuild reads newer rows).
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

  async buildLive(ladder: LadderConfig): Promise<void> {
    await this.load(ladder, LIVE, (after) => this.reader.livePage(ladder.id, after, PAGE), {
      asOf: new Date().toISOString(),
      dayScore: null,
    });
  }

  /** Applies the current rows of these players to the live board (idempotent). */
  async updateLive(ladder: LadderConfig, players: readonly string[]): Promise<boolean> {
    if (!hasBoard(ladder)) return true;
    const rows = await this.reader.livePlayers(ladder.id, players);
    return this.store.upsert(
      ladder.id,
      LIVE,
      rows.map((r) => boardEntry(r, ladder)),
    );
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
    { asOf, dayScore }: { asOf: string; dayScore: number | null },
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
      await build.commit({ asOf, builtAt: new Date().toISOString() }, dayScore);
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
