import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { LadderEvent } from '@ranking/contracts';
import { type StoredSkill, SkillReader } from '@ranking/persistence';
import {
  ACTIVE_FOR_MS,
  type IndexedSkill,
  SKILL_PRIOR,
  SkillIndex,
  skillMovers,
} from '@ranking/rating';
import { Metrics } from '../ops/metrics.js';

/** How often the loaded ladders are checked against PostgreSQL. */
export const CHECK_EVERY_MS = 1_000;
/** Whole reloads (an annulment, a void correction, a long gap) at most this often per ladder. */
export const RELOAD_AT_MOST_EVERY_MS = 5_000;
/** Past this many new events, reading them costs more than a reload. */
const MAX_EVENTS_READ = 2_000;
/**
 * A whole reload this often regardless: it drops the players who went inactive and picks up
 * what changed the table without an event (a `ranking rebuild`).
 */
const RELOAD_ANYWAY_MS = 10 * 60_000;

/** One ladder's index and how far it has caught up with PostgreSQL. */
export interface LoadedIndex {
  readonly index: SkillIndex;
  /** The ladder's log position whose effects the index holds. */
  seq: number;
  /** The index holds at least what PostgreSQL held at this instant (epoch ms). */
  checkedAt: number;
  /** When it was last loaded whole (epoch ms). */
  readonly loadedAt: number;
  /** An event since `seq` needs a whole reload (held back by RELOAD_AT_MOST_EVERY_MS). */
  reloadDue: boolean;
}

/** The estimate a stored row stands for: the prior before the player's first counted game. */
export const indexed = (row: StoredSkill): IndexedSkill => ({
  player: row.player,
  mu: row.mu ?? SKILL_PRIOR.mu,
  sigma: row.sigma ?? SKILL_PRIOR.sigma,
  lastPlayedAt: row.lastPlayedAt,
});

/**
 * Per ladder, the matchmaking index (`SkillIndex`) of its players (the walk skips those not
 * active in the last 14 days; they are there to ask), loaded from PostgreSQL on first use and
 * kept in step by polling: every CHECK_EVERY_MS the loaded ladders' log positions
 * (`ladders.last_seq`, one query for all); a ladder that moved has its new events read from the
 * event store, and only the players they name are read again (by primary key) and moved in the
 * index. Polling rather than the rating-changes consumer: instances of the service share that
 * consumer's group, so each sees only some ladders' messages. So an answer lags the rating
 * service's commit by about CHECK_EVERY_MS plus a few queries, and by at most
 * RELOAD_AT_MOST_EVERY_MS plus a load after an annulment (ADR 21). Each answer carries `asOf`.
 */
@Injectable()
export class SkillIndexes implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SkillIndexes.name);
  private readonly loaded = new Map<string, LoadedIndex>();
  private readonly loading = new Map<string, Promise<LoadedIndex>>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly reader: SkillReader,
    private readonly metrics: Metrics,
  ) {}

  /** The ladder's index, loaded on first use (concurrent first uses share one load). */
  async of(ladder: string): Promise<LoadedIndex> {
    const loaded = this.loaded.get(ladder);
    if (loaded) return loaded;
    let loading = this.loading.get(ladder);
    if (!loading) {
      loading = this.load(ladder)
        .then((fresh) => {
          this.loaded.set(ladder, fresh);
          this.schedule();
          return fresh;
        })
        .finally(() => this.loading.delete(ladder));
      this.loading.set(ladder, loading);
    }
    return loading;
  }

  /** Stored estimates of players, by primary key (as fresh as PostgreSQL). */
  stored(ladder: string, players: readonly string[]): Promise<StoredSkill[]> {
    return this.reader.players(ladder, players);
  }

  /** Before PostgreSQL closes: the check under way finishes, no other starts. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.checking;
  }

  /** The ladder's players, read whole; the position first, so nothing falls between. */
  private async load(ladder: string): Promise<LoadedIndex> {
    const started = Date.now();
    const seq = (await this.reader.logPositions([ladder])).get(ladder) ?? 0;
    const rows = await this.reader.ladderPlayers(ladder);
    const index = new SkillIndex(rows.map(indexed));
    const seconds = (Date.now() - started) / 1000;
    this.metrics.skillIndexLoad.observe({ ladder }, seconds);
    const active = rows.filter(
      (r) => r.lastPlayedAt !== null && r.lastPlayedAt >= started - ACTIVE_FOR_MS,
    ).length;
    this.logger.log(
      `loaded the skill index of ${ladder}: ${index.size} players (${active} active) in ${Math.round(seconds * 1000)} ms`,
    );
    return { index, seq, checkedAt: started, loadedAt: started, reloadDue: false };
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.checking = this.check()
        .catch((error: Error) => {
          if (!this.failing)
            this.logger.warn(
              `could not bring the skill indexes up to date (answers keep their asOf; retrying every ${CHECK_EVERY_MS} ms): ${error.message}`,
            );
          this.failing = true;
        })
        .finally(() => {
          this.timer = null;
          this.checking = null;
          this.schedule();
        });
    }, CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** One round: every loaded ladder brought up to its current log position. */
  private async check(): Promise<void> {
    const started = Date.now();
    const ladders = [...this.loaded.keys()];
    const positions = await this.reader.logPositions(ladders);
    for (const ladder of ladders) {
      const state = this.loaded.get(ladder)!;
      const seq = positions.get(ladder) ?? 0;
      let movers: Set<string> | 'ladder' | null = null;
      if (
        state.reloadDue ||
        seq < state.seq ||
        seq - state.seq > MAX_EVENTS_READ ||
        started - state.loadedAt >= RELOAD_ANYWAY_MS
      )
        movers = 'ladder';
      else if (seq > state.seq) movers = await this.movers(ladder, state.seq, seq);
      if (movers === 'ladder') {
        // Held back while the last load is recent: the index (and its asOf) stays as it is.
        state.reloadDue = true;
        if (started - state.loadedAt >= RELOAD_AT_MOST_EVERY_MS)
          this.loaded.set(ladder, await this.load(ladder));
        continue;
      }
      if (movers !== null) {
        const rows = await this.reader.players(ladder, [...movers]);
        const found = new Set(rows.map((r) => r.player));
        state.index.update(
          rows.map(indexed),
          [...movers].filter((p) => !found.has(p)),
        );
        this.metrics.skillIndexPlayers.inc({ ladder }, rows.length);
        state.seq = seq;
      }
      state.checkedAt = started;
    }
    this.failing = false;
  }

  /** The players whose estimates the events after `after` up to `upTo` may have moved. */
  private async movers(
    ladder: string,
    after: number,
    upTo: number,
  ): Promise<Set<string> | 'ladder'> {
    const movers = new Set<string>();
    for (const { payload } of await this.reader.eventsBetween(ladder, after, upTo)) {
      // Stored events passed the contract's validation when they were accepted.
      const moved = skillMovers(JSON.parse(payload) as LadderEvent);
      if (moved === 'ladder') return 'ladder';
      for (const player of moved) movers.add(player);
    }
    return movers;
  }
}
