import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { topicNames } from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import { ClockStore, MaintenanceOutbox, type OpenPeriod, sqlOf } from '@ranking/persistence';
import { dueCloses, type LadderConfig, PeriodCalendar, periodClosedEvent } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import type { Clock } from './clock.js';
import { OutboxRelay } from './outbox-relay.js';
import { CLOCK, DATA_SOURCE, ENVIRONMENT, LADDERS } from './tokens.js';

/**
 * The period clock: every tick, each ladder whose next close is more than the grace delay in
 * the past gets every due close, oldest first, decided in one transaction that holds the
 * ladder's clock rows (a second instance skips a ladder being closed) and moves them on.
 */
@Injectable()
export class PeriodTicker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PeriodTicker.name);
  /** How long after a period's close it is published. */
  readonly graceMs: number;
  private readonly tickMs: number;
  private readonly topic: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {
    this.graceMs = env.MAINTENANCE_GRACE_SECONDS * 1000;
    this.tickMs = env.MAINTENANCE_TICK_MS;
    this.topic = topicNames(env.KAFKA_TOPIC_PREFIX).ladderEvents;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick()
        .catch((error: Error) => {
          this.logger.warn(`clock tick failed, will retry: ${error.message}`);
          return 0;
        })
        .finally(() => (this.running = null));
    }, this.tickMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** The instant up to which periods are closed now: the clock minus the grace delay. */
  closingUpTo(): number {
    return this.clock.now() - this.graceMs;
  }

  /** Decides every due close; returns how many it decided. */
  async tick(): Promise<number> {
    const at = this.closingUpTo();
    const due = await new ClockStore(sqlOf(this.db.manager)).laddersDue(at);
    let decided = 0;
    for (const id of due) {
      const ladder = this.ladders.get(id);
      if (!ladder) {
        this.logger.warn(`a clock runs for ladder ${id}, which is not configured: skipped`, {
          ladder: id,
        });
        continue;
      }
      const periods = await this.closeLadder(ladder, at);
      for (const period of periods) this.metrics.periodCloses.inc({ ladder: ladder.id, period });
      decided += periods.length;
    }
    if (decided > 0) this.relay.wake();
    return decided;
  }

  /** The periods it closed, once committed. */
  private closeLadder(ladder: LadderConfig, at: number): Promise<string[]> {
    return this.db.transaction(async (manager) => {
      const sql = sqlOf(manager);
      const clocks = new ClockStore(sql);
      const open = await clocks.lock(ladder.id);
      if (!open) return [];
      const calendar = PeriodCalendar.of(ladder.timezone);
      const windows = open.map((o) => calendar.window(o.period, o.key));
      const step = dueCloses(windows, calendar, at);
      if (step.due.length === 0) return [];
      await new MaintenanceOutbox(sql).enqueue(
        step.due.map((w) => ({
          topic: this.topic,
          key: ladder.id,
          value: JSON.stringify(periodClosedEvent(ladder.id, calendar, w)),
        })),
      );
      await clocks.save(
        step.open.map((w): OpenPeriod => ({
          ladder: ladder.id,
          period: w.period,
          key: w.key,
          closesAt: w.closesAt,
        })),
      );
      if (step.due.length > 1)
        this.logger.log(`${ladder.id}: ${step.due.length} closes were due (catching up)`, {
          ladder: ladder.id,
          closes: step.due.map((w) => `${w.period}:${w.key}`),
        });
      return step.due.map((w) => w.period);
    });
  }
}
