import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The service's Prometheus metrics, on a registry of its own. */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'leaderboard_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: 'leaderboard_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
    registers: [this.registry],
  });

  readonly boardBuild = new Histogram({
    name: 'leaderboard_board_build_seconds',
    help: 'Time to load a board from PostgreSQL into Redis and switch to it',
    labelNames: ['ladder', 'view'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });

  readonly skippedMessages = new Counter({
    name: 'leaderboard_skipped_messages_total',
    help: 'Messages of ranking.rating-changes the boards passed over: unreadable, or failing on their own (unprocessable)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly consumerLag = new Gauge({
    name: 'leaderboard_consumer_lag',
    help: 'Messages of ranking.rating-changes not yet applied, by partition',
    labelNames: ['partition'] as const,
    registers: [this.registry],
  });

  readonly pageCache = new Counter({
    name: 'leaderboard_daily_page_cache_total',
    help: 'Daily-board pages answered from encoded copies (hit) or read from Redis (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly rebuilds = new Counter({
    name: 'leaderboard_rebuilds_total',
    help: 'Full rebuilds of the boards from PostgreSQL (start-up, Redis lost)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
