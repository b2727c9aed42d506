import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { validateEvent, type PlayerAnnulled } from '@ranking/contracts';
import { GameEventReader, sqlOf } from '@ranking/persistence';
import { type AnnulmentPreview, type LadderConfig, PeriodCalendar } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, ENVIRONMENT, LADDERS } from '../tokens.js';
import { LadderIntegrity } from './ladder-integrity.js';
import { ReviewPool } from './review-pool.js';

/**
 * The review routes' state: each ladder's integrity, kept from the first request on within
 * REVIEW_LADDER_GAMES games and refreshed as games arrive; its judging and the annulment dry
 * runs go to the review's worker threads (ReviewPool), never onto the API's event loop.
 * Reads on the service's unlimited pool: a ladder's first read is its whole log.
 */
@Injectable()
export class IntegrityWatch {
  private readonly ladders = new Map<string, LadderIntegrity>();

  constructor(
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(LADDERS) private readonly configs: ReadonlyMap<string, LadderConfig>,
    @Inject(ENVIRONMENT) private readonly env: Environment,
    private readonly pool: ReviewPool,
  ) {}

  of(ladder: string): LadderIntegrity {
    this.config(ladder);
    let integrity = this.ladders.get(ladder);
    if (!integrity) {
      integrity = new LadderIntegrity(
        ladder,
        new GameEventReader(sqlOf(this.db.manager)),
        (columns) => this.pool.judge(columns),
        this.env.REVIEW_LADDER_GAMES,
      );
      this.ladders.set(ladder, integrity);
    }
    return integrity;
  }

  config(ladder: string): LadderConfig {
    const config = this.configs.get(ladder);
    if (!config) throw new NotFoundException(`unknown ladder "${ladder}"`);
    return config;
  }

  /** What annulling `player` since `since` would move, on the log stored by now. */
  dryRun(ladder: string, player: string, since: string): Promise<AnnulmentPreview> {
    const config = this.config(ladder);
    const checked = validateEvent({
      id: `annulment:${ladder}:review-preview`,
      type: 'player.annulled',
      ladder,
      player,
      since,
      annulledAt: new PeriodCalendar(config.timezone).iso(Date.now()),
      note: 'review: dry run',
    });
    // The route checked player and since are there; what else the contract refuses is theirs too.
    if (!checked.ok)
      throw new BadRequestException(`not an annulment to preview: ${checked.rejection.detail}`);
    return this.pool.dryRun(config, checked.event as PlayerAnnulled);
  }
}
