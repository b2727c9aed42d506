import { Inject, Injectable } from '@nestjs/common';
import { ServiceMetrics } from '@ranking/operations';
import { Counter, Gauge, Histogram } from 'prom-client';

/**
 * The leaderboard's own metrics, beside the shared ones (ServiceMetrics: events, lag, batch and
 * board build times, HTTP latency) on the same registry.
 */
@Injectable()
export class Metrics {
  readonly boardBuild: ServiceMetrics['boardBuild'];

  readonly skippedMessages: Counter<'reason'>;

  readonly liveMessages: Counter<'outcome'>;

  readonly liveReads: Counter<'reason'>;

  readonly pageCache: Counter<'result'>;

  readonly rebuilds: Counter;

  readonly rateLimited: Counter<'route'>;

  readonly unversioned: Counter<'route'>;

  readonly skillIndexLoad: Histogram<'ladder'>;

  readonly skillIndexPlayers: Counter<'ladder'>;

  readonly pointInTimeBoards: Counter<'result'>;

  readonly pointInTimeBuild: Histogram<'ladder'>;

  readonly pointInTimeBuilds: Gauge<'state'>;

  readonly pointInTimeRefused: Counter;

  readonly receiptsPurged: Counter;

  readonly reviewTasks: Gauge<'state'>;

  readonly reviewTask: Histogram<'task'>;

  readonly reviewRefused: Counter<'task' | 'reason'>;

  constructor(@Inject(ServiceMetrics) readonly shared: ServiceMetrics) {
    const registers = [shared.registry];
    this.boardBuild = shared.boardBuild;
    this.skippedMessages = new Counter({
      name: 'leaderboard_skipped_messages_total',
      help: 'Messages of ranking.rating-changes the boards passed over: unreadable, or failing on their own (unprocessable)',
      labelNames: ['reason'] as const,
      registers,
    });
    this.liveMessages = new Counter({
      name: 'leaderboard_live_messages_total',
      help: 'Rating-changes messages the live boards took from their contents (applied) or passed over as already in them (duplicate)',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.liveReads = new Counter({
      name: 'leaderboard_live_reads_total',
      help: 'Live boards read whole from PostgreSQL because of a message: a summary that lists nobody, or a gap (a lost message before it)',
      labelNames: ['reason'] as const,
      registers,
    });
    this.pageCache = new Counter({
      name: 'leaderboard_daily_page_cache_total',
      help: 'Daily-board pages answered from encoded copies (hit) or read from Redis (miss)',
      labelNames: ['result'] as const,
      registers,
    });
    this.rebuilds = new Counter({
      name: 'leaderboard_rebuilds_total',
      help: 'Ladders whose boards this instance rebuilt from PostgreSQL (start-up, Redis or a cluster master lost); each rebuild is claimed by one instance',
      registers,
    });
    this.rateLimited = new Counter({
      name: 'leaderboard_rate_limited_total',
      help: 'Requests answered 429: their client over RATE_LIMIT_PER_MINUTE, or their service token over INGEST_REQUESTS_PER_MINUTE (POST /v1/games)',
      labelNames: ['route'] as const,
      registers,
    });
    this.unversioned = new Counter({
      name: 'leaderboard_unversioned_requests_total',
      help: 'Requests to the deprecated unversioned API paths (aliases of /v1), by /v1 route: who still needs to move',
      labelNames: ['route'] as const,
      registers,
    });
    this.skillIndexLoad = new Histogram({
      name: 'leaderboard_skill_index_load_seconds',
      help: "Whole loads of a ladder's matchmaking index from PostgreSQL (first use, annulments, long gaps)",
      labelNames: ['ladder'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.skillIndexPlayers = new Counter({
      name: 'leaderboard_skill_index_players_total',
      help: "Players re-read into a ladder's matchmaking index because new events named them",
      labelNames: ['ladder'] as const,
      registers,
    });
    this.pointInTimeBoards = new Counter({
      name: 'leaderboard_point_in_time_boards_total',
      help: 'Boards as of an instant (?at=) answered from memory (hit) or read from the rating history (miss)',
      labelNames: ['result'] as const,
      registers,
    });
    this.pointInTimeBuild = new Histogram({
      name: 'leaderboard_point_in_time_build_seconds',
      help: 'Time to read a board as of an instant from the rating history and rank it',
      labelNames: ['ladder'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    });
    this.pointInTimeBuilds = new Gauge({
      name: 'leaderboard_point_in_time_builds',
      help: 'Boards as of an instant being built now (running, at most POINT_IN_TIME_BUILDS) or waiting for a slot (queued, at most POINT_IN_TIME_QUEUE)',
      labelNames: ['state'] as const,
      registers,
    });
    this.pointInTimeBuilds.set({ state: 'running' }, 0);
    this.pointInTimeBuilds.set({ state: 'queued' }, 0);
    this.pointInTimeRefused = new Counter({
      name: 'leaderboard_point_in_time_refused_total',
      help: 'Requests for a board as of an instant answered 503 because every build slot and queue place was taken',
      registers,
    });
    this.receiptsPurged = new Counter({
      name: 'leaderboard_ingest_receipts_purged_total',
      help: 'Receipts of POST /v1/games deleted past INGEST_RECEIPT_RETENTION_DAYS',
      registers,
    });
    this.reviewTasks = new Gauge({
      name: 'leaderboard_review_tasks',
      help: "The integrity review's tasks on its worker threads: running (at most REVIEW_WORKERS) or waiting for a thread (queued, at most REVIEW_QUEUE_LIMIT)",
      labelNames: ['state'] as const,
      registers,
    });
    this.reviewTasks.set({ state: 'running' }, 0);
    this.reviewTasks.set({ state: 'queued' }, 0);
    this.reviewTask = new Histogram({
      name: 'leaderboard_review_task_seconds',
      help: "Time of an integrity review's task (judge: a ladder's win-trading analysis; dryRun: an annulment's dry run), waiting for a thread included",
      labelNames: ['task'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers,
    });
    this.reviewRefused = new Counter({
      name: 'leaderboard_review_refused_total',
      help: 'Integrity review requests answered 503: every worker and queue place taken (busy), or the task past REVIEW_TIMEOUT_MS (timeout)',
      labelNames: ['task', 'reason'] as const,
      registers,
    });
  }
}
