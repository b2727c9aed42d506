import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type Duel,
  type DuelColumns,
  gameEventOf,
  LadderDuels,
  type ReportedSuspect,
  WIN_TRADING_DEFAULTS,
  type WinTradingOptions,
} from '@ranking/integrity';
import type { GameEventReader } from '@ranking/persistence';
import type { JudgedLadder } from './review-tasks.js';

/**
 * Rows read between two turns of the event loop: the API's requests are answered between (at
 * 1,000 a turn a ladder's first read of 200,000 rows put the public p99 at 173 ms, at 200 at
 * 44 ms: bench/review.bench.ts).
 */
const ROWS_A_TURN = 200;

/** A ladder's integrity report as the review routes answer it. */
export interface LadderSuspects {
  readonly ladder: string;
  /** Two-player games judged. */
  readonly games: number;
  /**
   * Two-player games of the log no longer judged: the oldest, forgotten to keep the ladder
   * within REVIEW_LADDER_GAMES (0: the report covers the whole log).
   */
  readonly forgotten: number;
  /** finishedAt of the oldest game judged (null when none is). */
  readonly judgedFrom: string | null;
  /** The last stored position read: the report covers the log up to it. */
  readonly through: string;
  readonly thresholds: WinTradingOptions;
  readonly suspects: readonly ReportedSuspect[];
}

/**
 * One ladder's games as the review routes know them, kept in memory within `cap` games (the
 * oldest forgotten first: LadderDuels) and refreshed incrementally: each refresh reads only the
 * events stored after the last one it read, on this thread, 200 rows a turn of the event loop.
 * Judging is `judge`'s, on a worker thread, and runs again only if events came since the last
 * report. Refreshes of a ladder run one at a time.
 */
export class LadderIntegrity {
  private readonly duels: LadderDuels;
  private through = '-1';
  private report: LadderSuspects | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    readonly ladder: string,
    private readonly reader: GameEventReader,
    private readonly judge: (columns: DuelColumns) => Promise<JudgedLadder>,
    cap: number,
  ) {
    this.duels = new LadderDuels(ladder, cap);
  }

  /** The report over everything stored by now. */
  suspects(): Promise<LadderSuspects> {
    return this.inTurn(async () => {
      await this.read();
      if (this.report !== null && this.report.through === this.through) return this.report;
      const through = this.through;
      const { forgotten, oldest } = this.duels;
      const judged = await this.judge(this.duels.columns());
      return (this.report = {
        ladder: this.ladder,
        games: judged.games,
        forgotten,
        judgedFrom: oldest,
        through,
        thresholds: WIN_TRADING_DEFAULTS,
        suspects: judged.suspects,
      });
    });
  }

  /** The pair's games held, in time order, as of everything stored by now (not judged). */
  pairGames(a: string, b: string): Promise<readonly Duel[]> {
    return this.inTurn(async () => {
      await this.read();
      return this.duels.pair(a, b);
    });
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.running.then(work);
    this.running = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<void> {
    let read = 0;
    for await (const { seq, payload } of this.reader.payloads(this.ladder, this.through)) {
      const event = gameEventOf(payload, (id) => id === this.ladder);
      if (event) this.duels.add(event);
      this.through = seq;
      if (++read % ROWS_A_TURN === 0) await nextTurn();
    }
  }
}
