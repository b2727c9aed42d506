import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import type { PlayerAnnulled } from '@ranking/contracts';
import { type DuelColumns, duelColumnBuffers, WIN_TRADING_DEFAULTS } from '@ranking/integrity';
import type { AnnulmentPreview, LadderConfig } from '@ranking/rating';
import { Piscina } from 'piscina';
import { Metrics } from '../ops/metrics.js';
import { ENVIRONMENT } from '../tokens.js';
import type { DryRunTask, JudgedLadder, JudgeTask, ReviewTaskName } from './review-tasks.js';

/** The built worker, next to this file (dist/apps/leaderboard-service/src/review/). */
export const REVIEW_WORKER = new URL('./review-worker.js', import.meta.url);

/**
 * The workers' threads run at a lower CPU priority than the API's (nice +10, where
 * `@napi-rs/nice` loads, as on Linux): on a busy machine the kernel gives the API's thread the
 * core first, and a review's analysis takes what is left.
 */
const NICE_INCREMENT = 10;

/** A worker idle this long ends; the next task starts one again (a few hundred milliseconds). */
const IDLE_MS = 60_000;

/** Retry-After when refused before any task has finished (nothing measured yet), in seconds. */
const FIRST_RETRY_AFTER_S = 5;

/** Every worker busy and every queue place taken: answered 503 with Retry-After. */
export class ReviewBusyError extends Error {
  override readonly name = 'ReviewBusyError';

  constructor(
    message: string,
    /** About when a place frees: the mean time a review task has taken so far, in seconds. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A review task past REVIEW_TIMEOUT_MS: its worker was stopped; answered 503. */
export class ReviewTimeoutError extends Error {
  override readonly name = 'ReviewTimeoutError';
}

/**
 * The review's heavy work on worker threads (ADR 41), through piscina: REVIEW_WORKERS threads,
 * REVIEW_QUEUE_LIMIT tasks waiting for one, and past those a task is refused at once
 * (ReviewBusyError) rather than piling up. A task may take REVIEW_TIMEOUT_MS from being queued;
 * then it is aborted, which stops its thread if it runs (piscina starts another).
 */
@Injectable()
export class ReviewPool implements OnApplicationShutdown {
  private readonly pool: Piscina;
  private readonly places: number;
  /** Tasks running or waiting (counted here, so the bound does not depend on threads starting). */
  private admitted = 0;

  constructor(
    @Inject(ENVIRONMENT) private readonly env: Environment,
    private readonly metrics: Metrics,
  ) {
    this.places = env.REVIEW_WORKERS + env.REVIEW_QUEUE_LIMIT;
    this.pool = new Piscina({
      filename: REVIEW_WORKER.href,
      minThreads: 0,
      maxThreads: env.REVIEW_WORKERS,
      idleTimeout: IDLE_MS,
      niceIncrement: NICE_INCREMENT,
    });
    this.observe();
  }

  /** The ladder's duels judged for win-trading on a worker (the columns' buffers move there). */
  judge(columns: DuelColumns): Promise<JudgedLadder> {
    const task: JudgeTask = { columns, thresholds: WIN_TRADING_DEFAULTS };
    return this.run('judge', task, duelColumnBuffers(columns));
  }

  /** The annulment's dry run on a worker, which reads the stored log itself. */
  dryRun(ladder: LadderConfig, event: PlayerAnnulled): Promise<AnnulmentPreview> {
    const task: DryRunTask = { databaseUrl: this.env.DATABASE_URL, ladder, event };
    return this.run('dryRun', task);
  }

  async onApplicationShutdown(): Promise<void> {
    // Whatever still runs is abandoned: its request is answered by nobody anyway.
    await this.pool.destroy();
  }

  private async run<T>(
    name: ReviewTaskName,
    task: JudgeTask | DryRunTask,
    transferList?: ArrayBuffer[],
  ): Promise<T> {
    if (this.admitted >= this.places) {
      this.metrics.reviewRefused.inc({ task: name, reason: 'busy' });
      throw new ReviewBusyError(
        `${this.env.REVIEW_WORKERS} review tasks are running and ${this.env.REVIEW_QUEUE_LIMIT} waiting (REVIEW_WORKERS, REVIEW_QUEUE_LIMIT); retry later`,
        this.retryAfter(),
      );
    }
    this.admitted += 1;
    this.observe();
    const end = this.metrics.reviewTask.startTimer({ task: name });
    try {
      return (await this.pool.run(task, {
        name,
        transferList,
        signal: AbortSignal.timeout(this.env.REVIEW_TIMEOUT_MS),
      })) as T;
    } catch (error) {
      if ((error as Error | null)?.name === 'AbortError') {
        this.metrics.reviewRefused.inc({ task: name, reason: 'timeout' });
        throw new ReviewTimeoutError(
          `the review's ${name} took longer than REVIEW_TIMEOUT_MS (${this.env.REVIEW_TIMEOUT_MS} ms) and was stopped`,
        );
      }
      throw error;
    } finally {
      end();
      this.admitted -= 1;
      this.observe();
    }
  }

  /** The mean run time of the tasks finished so far, in whole seconds (1-60). */
  private retryAfter(): number {
    const mean = this.pool.histogram.runTime.mean;
    if (!(mean > 0)) return FIRST_RETRY_AFTER_S;
    return Math.min(60, Math.max(1, Math.ceil(mean / 1000)));
  }

  private observe(): void {
    const running = Math.min(this.admitted, this.env.REVIEW_WORKERS);
    this.metrics.reviewTasks.set({ state: 'running' }, running);
    this.metrics.reviewTasks.set({ state: 'queued' }, this.admitted - running);
  }
}
