import { Controller, Get, Inject } from '@nestjs/common';
import { ClockStore, sqlOf } from '@ranking/persistence';
import { type LadderConfig, PeriodCalendar } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { PeriodTicker } from './period-ticker.js';
import { DATA_SOURCE, LADDERS } from './tokens.js';

export interface ScheduledClose {
  readonly period: string;
  readonly key: string;
  /** The close's instant, in the ladder's zone. */
  readonly closesAt: string;
  /** When the service publishes it: the close plus the grace delay. */
  readonly publishAfter: string;
}

/** `GET /schedule`: the next close of each period, per ladder whose clock runs. */
@Controller('schedule')
export class ScheduleController {
  constructor(
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(PeriodTicker) private readonly ticker: PeriodTicker,
  ) {}

  @Get()
  async next(): Promise<{ ladders: Record<string, ScheduledClose[]> }> {
    const out: Record<string, ScheduledClose[]> = {};
    for (const open of await new ClockStore(sqlOf(this.db.manager)).all()) {
      const ladder = this.ladders.get(open.ladder);
      if (!ladder) continue;
      const calendar = PeriodCalendar.of(ladder.timezone);
      (out[open.ladder] ??= []).push({
        period: open.period,
        key: open.key,
        closesAt: calendar.iso(open.closesAt),
        publishAfter: calendar.iso(open.closesAt + this.ticker.graceMs),
      });
    }
    return { ladders: out };
  }
}
