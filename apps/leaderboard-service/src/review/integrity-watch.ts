import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { validateEvent, type PlayerAnnulled } from '@ranking/contracts';
import { GameEventReader, PgLadderStore, sqlOf } from '@ranking/persistence';
import {
  type AnnulmentPreview,
  annulmentPreview,
  type LadderConfig,
  PeriodCalendar,
} from '@ranking/rating';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, LADDERS } from '../tokens.js';
import { LadderIntegrity } from './ladder-integrity.js';

/**
 * The review routes' state: each ladder's integrity, kept from the first request on and
 * refreshed as games arrive; and annulment dry runs, folded here one at a time (a whole
 * ladder's fold is CPU the API's other requests wait behind: support staff ask for few).
 * Reads on the service's unlimited pool: a ladder's first read is its whole log.
 */
@Injectable()
export class IntegrityWatch {
  private readonly ladders = new Map<string, LadderIntegrity>();
  private previews: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(LADDERS) private readonly configs: ReadonlyMap<string, LadderConfig>,
  ) {}

  of(ladder: string): LadderIntegrity {
    this.config(ladder);
    let integrity = this.ladders.get(ladder);
    if (!integrity) {
      integrity = new LadderIntegrity(ladder, new GameEventReader(sqlOf(this.db.manager)));
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
    const event = checked.event as PlayerAnnulled;
    const next = this.previews.then(() =>
      this.db.transaction('REPEATABLE READ', (manager) =>
        annulmentPreview(
          new PgLadderStore(sqlOf(manager), new Map([[ladder, config]])),
          config,
          event,
        ),
      ),
    );
    this.previews = next.catch(() => undefined);
    return next;
  }
}
