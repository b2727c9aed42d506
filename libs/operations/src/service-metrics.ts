import { Injectable } from '@nestjs/common';
import type { ConsumerObserver } from '@ranking/kafka';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The metrics every service shares, on a registry of its own (Prometheus naming; the job and
 * instance labels tell the services apart), plus the default process metrics. A service adds
 * its own metrics to `registry`.
 */
@Injectable()
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly events = new Counter({
    name: 'ranking_events_total',
    help: 'Consumed messages by outcome (applied, rejected, void, duplicate, unprocessable); rejections by reason',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });

  readonly consumerLag = new Gauge({
    name: 'ranking_consumer_lag_messages',
    help: 'Messages between the consumer checkpoint and the end of the log, measured every few seconds',
    labelNames: ['topic', 'partition'] as const,
    registers: [this.registry],
  });

  readonly batchDuration = new Histogram({
    name: 'ranking_batch_duration_seconds',
    help: 'Time to settle one transaction of consumed messages, retries included',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly batchMessages = new Histogram({
    name: 'ranking_batch_messages',
    help: 'Consumed messages settled in one transaction (a fetch, or a part of a large one)',
    buckets: [1, 10, 50, 100, 250, 500, 1000, 2000, 5000, 10_000, 50_000],
    registers: [this.registry],
  });

  readonly fetchWait = new Histogram({
    name: 'ranking_fetch_wait_seconds',
    help: 'Per consumed message: from its Kafka timestamp (when it was produced) to its hand-over to the consumer',
    labelNames: ['topic'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly outboxRound = new Histogram({
    name: 'ranking_outbox_round_seconds',
    help: 'One outbox relay round that published something: claim, publish (acknowledged), delete, commit',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly periodCloses = new Counter({
    name: 'ranking_period_closes_total',
    help: 'Period closes decided (period.closed events written to the outbox)',
    labelNames: ['ladder', 'period'] as const,
    registers: [this.registry],
  });

  readonly penalties = new Counter({
    name: 'ranking_penalties_total',
    help: 'Disconnect penalties decided (player.penalized events written to the outbox)',
    labelNames: ['ladder'] as const,
    registers: [this.registry],
  });

  readonly boardBuild = new Histogram({
    name: 'ranking_board_build_duration_seconds',
    help: 'Time to load a board from PostgreSQL into Redis and switch to it',
    labelNames: ['ladder', 'view'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly readinessChecks = new Counter({
    name: 'ranking_readiness_checks_total',
    help: 'Runs of each readiness check (at most one a second, its answer shared by the probes meanwhile)',
    labelNames: ['check'] as const,
    registers: [this.registry],
  });

  readonly annulmentSwaps = new Histogram({
    name: 'ranking_annulment_swap_seconds',
    help: 'Annulments swapped in beside the consumer: the re-fold (phase=refold) and the ladder lock held for the swap (phase=lock)',
    labelNames: ['phase'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  readonly snapshotsWritten = new Counter({
    name: 'ranking_snapshots_written_total',
    help: 'Ladder snapshots written by the rating service',
    labelNames: ['ladder'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The outbox's waiting rows, counted when Prometheus scrapes (services with an outbox). */
  countOutbox(pending: () => Promise<number>): void {
    new Gauge({
      name: 'ranking_outbox_pending_messages',
      help: 'Messages waiting in the service outbox to be published',
      registers: [this.registry],
      // A database away shows as NaN (unknown); the scrape itself still answers.
      async collect() {
        this.set(await pending().catch(() => NaN));
      },
    });
  }

  /** What a consumer of `topic` reports: outcomes, batch times, lag. */
  consumerObserver(topic: string): ConsumerObserver {
    return {
      outcomes: (outcomes) => {
        for (const { outcome, reason, count } of outcomes)
          this.events.inc({ outcome, reason: reason ?? '' }, count);
      },
      settled: (messages, seconds) => {
        this.batchDuration.observe(seconds);
        this.batchMessages.observe(messages);
      },
      fetched: (waits) => {
        const histogram = this.fetchWait.labels({ topic });
        for (const wait of waits) histogram.observe(wait);
      },
      lag: ({ partitions }) => {
        for (const [partition, lag] of partitions)
          this.consumerLag.set({ topic, partition: String(partition) }, Number(lag));
      },
    };
  }
}
