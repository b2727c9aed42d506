import type { LadderEvent, PlayerAnnulled } from '@ranking/contracts';
import {
  boardStandingOf,
  type HistoryRow,
  EventStoreRepository,
  GameRepository,
  HistoryRepository,
  LadderCounterRepository,
  PendingAnnulmentRepository,
  PlayerRepository,
  LadderSnapshots,
  MessageLog,
  PgLadderStore,
  type Sql,
  sqlOf,
} from '@ranking/persistence';
import {
  type Annulment,
  annulmentMessage,
  annulmentOf,
  annulmentWhy,
  foldFromStore,
  ForwardingLadderStore,
  type LadderConfig,
  type LadderFold,
  type PlayerState,
  playersNamed,
  type RefoldDiff,
  refoldDiff,
  withLater,
  type SkillState,
} from '@ranking/rating';
import type { DataSource } from 'typeorm';

/** Rows read or written per statement. */
const PAGE = 10_000;
/** Game rows per transaction written before the swap (each holds their row locks that long). */
const PRE_WRITE = 5_000;

/** What one swap did, for the log and the bench. */
export interface SwapReport {
  readonly ladder: string;
  readonly annulments: number;
  /** Where the re-fold started (a snapshot's position, or 0) and the position it read to. */
  readonly from: number;
  readonly read: number;
  /** The position the swap brought the ladder to, and events folded under the lock to get there. */
  readonly swappedAt: number;
  readonly caughtUp: number;
  readonly moved: number;
  readonly refoldSeconds: number;
  readonly lockSeconds: number;
  readonly steps: SwapSteps;
  /** The re-fold's game rows, and those of them the pre-write found changed and wrote. */
  readonly gameRows: { readonly refolded: number; readonly written: number };
}

/** Seconds per step of a swap, so that the log and the bench say which one costs what. */
export interface SwapSteps {
  /** Before the lock: finding the annulments' first covered games (the store's firstCovered). */
  readonly covered: number;
  /** Reading and decoding the snapshot the re-fold started from. */
  readonly snapshot: number;
  /** Reading the events (COPY and JSON.parse), as long as the fold waited for them. */
  readonly events: number;
  /** Folding them (the rest of foldFromStore). */
  readonly fold: number;
  /** Writing the re-fold's game rows. */
  readonly preWrite: number;
  /** Before the lock: reading the stored players and comparing them with the re-fold. */
  readonly preDiff: number;
  /** Under the lock: the events that arrived meanwhile, read and folded. */
  readonly catchUp: number;
  /** Under the lock: reading the stored players events since the read named (all after a close). */
  readonly players: number;
  /** The diff of the stored players against the re-fold. */
  readonly diff: number;
  /** Writing the players, game rows, history, messages. */
  readonly write: number;
  /** After the swap: the re-fold's snapshot saved. */
  readonly save: number;
}

const NO_STEPS: SwapSteps = {
  covered: 0,
  snapshot: 0,
  events: 0,
  fold: 0,
  preWrite: 0,
  preDiff: 0,
  catchUp: 0,
  players: 0,
  diff: 0,
  write: 0,
  save: 0,
};

export interface RefolderOptions {
  readonly topics: { readonly ratingChanges: string };
  readonly snapshotEvery: number;
  readonly snapshotsKept: number;
}

interface Pending {
  readonly seq: number;
  readonly event: PlayerAnnulled;
}

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

/**
 * Annulments applied beside the consumer (ADR 24). The batch accepts a `player.annulled` into
 * the store and leaves it pending; this re-folds the ladder from its store (foldFromStore, from
 * a snapshot) on its own connection while the partition keeps flowing, writes the game rows of
 * that re-fold, then, holding the ladder's lock only for that, folds the events that arrived
 * meanwhile and swaps the players in: the ladder becomes exactly the fold of its log with the
 * annulment where it stands. It also keeps each ladder's snapshots.
 */
export class AnnulmentRefolder {
  constructor(
    private readonly db: DataSource,
    private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly options: RefolderOptions,
  ) {}

  /** Ladders with annulments waiting, the longest waiting first. */
  async pendingLadders(): Promise<string[]> {
    const ladders = await new PendingAnnulmentRepository(sqlOf(this.db.manager)).pendingLadders();
    return ladders.filter((l) => this.ladders.has(l));
  }

  /** Re-folds a ladder with its pending annulments and swaps it in; null when none is pending. */
  async refold(ladderId: string): Promise<SwapReport | null> {
    const ladder = this.configOf(ladderId);
    const started = process.hrtime.bigint();
    const read = await this.db.transaction('REPEATABLE READ', async (manager) => {
      const sql = sqlOf(manager);
      const pending = await pendingOf(sql, ladder.id, Number.MAX_SAFE_INTEGER);
      if (pending.length === 0) return null;
      const store = new TimedStore(new PgLadderStore(sql, this.ladders));
      // An annulment that covers no game changes nothing: no re-fold for it.
      let firstCovered: number | null = null;
      for (const p of pending) {
        const first = await store.firstCovered(ladder.id, annulmentOf(p.event, p.seq - 1));
        if (first !== null) firstCovered = Math.min(first, firstCovered ?? first);
      }
      if (firstCovered === null) return { pending, refold: null };
      // The fold's own time: foldFromStore's less what it spent in the store.
      const fromStore = process.hrtime.bigint();
      const inStore = store.totalSeconds;
      // Game rows before the first covered game are the same as stored: only those from it on
      // are listed as written (and compared with the stored ones before they are written).
      const refold = await foldFromStore(store, ladder, { markWrittenAt: firstCovered });
      const steps = {
        covered: store.coveredSeconds,
        snapshot: store.snapshotSeconds,
        events: store.eventSeconds,
        fold: seconds(fromStore) - (store.totalSeconds - inStore),
      };
      return { pending, refold, steps };
    });
    if (read === null) return null;
    if (read.refold === null) return this.settleWithoutRefold(ladder, read.pending);
    const { fold, from, position, rejected } = read.refold;
    if (rejected > 0)
      throw new Error(
        `ladder ${ladder.id}: the re-fold rejected ${rejected} stored events (was the ladder configured otherwise?)`,
      );
    // The re-fold's game rows, written before the lock in small transactions: only corrections
    // use them, and any game an event after `position` touched is written again at the swap.
    // The fold lists those from the first covered game on (markWrittenAt); of those, only the
    // rows that differ from the stored ones are written.
    const preWriting = process.hrtime.bigint();
    const rows = fold.changedGameRows();
    let written = 0;
    for (let i = 0; i < rows.length; i += PRE_WRITE)
      written += await this.db.transaction(async (manager) => {
        const repo = new GameRepository(sqlOf(manager));
        const page = rows.slice(i, i + PRE_WRITE);
        const stored = await repo.loadGames(
          ladder.id,
          page.map(([id]) => id),
        );
        const differ = page.filter(([id, record, skill]) => {
          const row = stored.get(id);
          return row?.record !== record || (skill !== null && row.skill !== skill);
        });
        await repo.upsertGamesOf([[ladder.id, differ]]);
        return differ.length;
      });
    fold.markWritten();
    const preWrite = seconds(preWriting);
    // The stored players and what the re-fold changes in them, before the lock: under it, only
    // the players events since then named are read and compared again.
    const diffing = process.hrtime.bigint();
    const first = read.pending[0]!;
    const stored = await storedPlayers(new PlayerRepository(sqlOf(this.db.manager)), ladder.id);
    const why = annulmentWhy(annulmentOf(first.event, first.seq - 1));
    const early = {
      first: first.seq,
      stored,
      diff: refoldDiff(stored.players, stored.skills, fold, why),
    };
    const preDiff = seconds(diffing);
    const refoldSeconds = seconds(started);
    const locked = process.hrtime.bigint();
    let swap;
    try {
      swap = await this.db.transaction((manager) =>
        this.swap(sqlOf(manager), fold, position, early),
      );
    } catch (error) {
      if (error instanceof AnnulledMeanwhile) return this.refold(ladderId);
      throw error;
    }
    const lockSeconds = seconds(locked);
    const saving = process.hrtime.bigint();
    if (swap === null) return null;
    await this.saveSnapshot(fold, swap.lastEventId);
    return {
      ladder: ladder.id,
      annulments: swap.annulments,
      from,
      read: position,
      swappedAt: swap.swappedAt,
      caughtUp: swap.swappedAt - position,
      moved: swap.moved,
      refoldSeconds,
      lockSeconds,
      steps: {
        ...read.steps,
        preWrite,
        preDiff,
        ...swap.steps,
        save: seconds(saving),
      },
      gameRows: { refolded: rows.length, written },
    };
  }

  /**
   * Writes a snapshot of a ladder that took `snapshotEvery` events since its newest one (one a
   * call, so that pending annulments never wait behind a long series). Returns its position.
   */
  async snapshotDue(): Promise<{ ladder: string; position: number; seconds: number } | null> {
    const sql = sqlOf(this.db.manager);
    const snapshots = new LadderSnapshots(sql);
    for (const [id, counters] of await new LadderCounterRepository(sql).activeLadders()) {
      const ladder = this.ladders.get(id);
      if (!ladder) continue;
      // The newest snapshot this code can read: older formats are as good as none.
      const newest = await snapshots.newest(ladder);
      if (counters.lastSeq - newest < this.options.snapshotEvery) continue;
      const started = process.hrtime.bigint();
      const upTo = newest + this.options.snapshotEvery;
      const { fold, rejected } = await this.db.transaction('REPEATABLE READ', (manager) =>
        foldFromStore(new PgLadderStore(sqlOf(manager), this.ladders), ladder, { upTo }),
      );
      if (rejected > 0)
        throw new Error(
          `ladder ${ladder.id}: a snapshot's fold rejected ${rejected} stored events`,
        );
      const eventId = await new EventStoreRepository(sqlOf(this.db.manager)).eventIdAt(
        ladder.id,
        upTo,
      );
      await this.saveSnapshot(fold, eventId!);
      return { ladder: ladder.id, position: upTo, seconds: seconds(started) };
    }
    return null;
  }

  /** Under the ladder's lock: the events since the read, then the players, history and message. */
  private async swap(sql: Sql, fold: LadderFold, read: number, early: EarlyDiff) {
    const ladder = fold.ladder;
    const repo = {
      counters: new LadderCounterRepository(sql),
      players: new PlayerRepository(sql),
      games: new GameRepository(sql),
      history: new HistoryRepository(sql),
    };
    let step = process.hrtime.bigint();
    const lap = () => {
      const s = seconds(step);
      step = process.hrtime.bigint();
      return s;
    };
    const swappedAt = (await repo.counters.lockLadders([ladder.id])).get(ladder.id)!.lastSeq;
    const store = new PgLadderStore(sql, this.ladders);
    const caught: LadderEvent[] = [];
    for await (const batch of store.events(ladder.id, read, swappedAt))
      for (const event of batch) {
        caught.push(event);
        // An annulment that arrived after the read: its games were folded uncovered. Roll
        // back and re-fold with it known (it is pending too).
        if (event.type === 'player.annulled') throw new AnnulledMeanwhile();
        if (fold.evolve(event).status === 'rejected')
          throw new Error(`ladder ${ladder.id}: the re-fold rejected stored event ${event.id}`);
      }
    const catchUp = lap();
    const pending = await pendingOf(sql, ladder.id, swappedAt);
    // Another instance's refold thread swapped them in first: nothing is left to do.
    if (pending.length === 0) return null;
    // Several annulments pending together are swapped in at once: the moves go to the first.
    const first = pending[0]!;
    const why = annulmentWhy(annulmentOf(first.event, first.seq - 1));
    const touched = playersNamed(caught);
    let diff: RefoldDiff;
    if (touched === null || early.first !== first.seq) {
      // A close since the read (it may change anyone): every player again.
      const stored = await storedPlayers(repo.players, ladder.id);
      diff = refoldDiff(stored.players, stored.skills, fold, why);
    } else if (touched.size === 0) diff = early.diff;
    else {
      const players = new Map(early.stored.players);
      const skills = new Map(early.stored.skills);
      for (const id of touched) {
        players.delete(id);
        skills.delete(id);
      }
      const fresh = (await repo.players.loadPlayersOf(new Map([[ladder.id, [...touched]]]))).get(
        ladder.id,
      );
      for (const p of fresh?.players ?? []) players.set(p.id, p);
      for (const s of fresh?.skills ?? []) skills.set(s.id, s);
      diff = withLater(early.diff, refoldDiff(players, skills, fold, why, touched), touched);
    }
    const players = lap();
    const diffSeconds = lap();
    const skills = fold.skill?.players;
    for (let i = 0; i < diff.players.length; i += PAGE)
      await repo.players.upsertPlayers(ladder.id, diff.players.slice(i, i + PAGE), skills);
    await repo.players.clearSkills(ladder.id, diff.staleSkills);
    await repo.games.upsertGamesOf([[ladder.id, fold.changedGameRows()]]);
    const history: HistoryRow[] = diff.changes.map((change) => ({
      ladder: ladder.id,
      seq: first.seq,
      eventId: first.event.id,
      change,
      standing: boardStandingOf(fold.players.get(change.player)!),
      skill: diff.skill.get(change.player) ?? null,
    }));
    await repo.history.appendHistory(history);
    await this.publish(sql, pending, diff.changes.length);
    await new PendingAnnulmentRepository(sql).settle(ladder.id, swappedAt);
    const lastEventId = (await new EventStoreRepository(sql).eventIdAt(ladder.id, swappedAt))!;
    return {
      swappedAt,
      annulments: pending.length,
      moved: diff.changes.length,
      lastEventId,
      steps: { catchUp, players, diff: diffSeconds, write: lap() },
    };
  }

  /** Annulments that cover no game: their messages (nobody moved), nothing re-folded. */
  private async settleWithoutRefold(ladder: LadderConfig, pending: readonly Pending[]) {
    const last = pending.at(-1)!.seq;
    await this.db.transaction(async (manager) => {
      const sql = sqlOf(manager);
      await this.publish(sql, pending, 0);
      await new PendingAnnulmentRepository(sql).settle(ladder.id, last);
    });
    return {
      ladder: ladder.id,
      annulments: pending.length,
      from: last,
      read: last,
      swappedAt: last,
      caughtUp: 0,
      moved: 0,
      refoldSeconds: 0,
      lockSeconds: 0,
      steps: NO_STEPS,
      gameRows: { refolded: 0, written: 0 },
    };
  }

  /**
   * One summary message per annulment, in log order; the first one counts the players the swap
   * moved (several annulments of a ladder pending together are swapped in at once). Each is out
   * of the ladder's chain of messages (previousSeq 0): it comes after later events' messages,
   * and a summary always makes a reader re-read the ladder (ADR 24, 25).
   */
  private async publish(sql: Sql, pending: readonly Pending[], moved: number) {
    await new MessageLog(sql).enqueue(
      pending.map((p, i) => ({
        topic: this.options.topics.ratingChanges,
        key: p.event.ladder,
        value: JSON.stringify(
          annulmentMessage(p.event, { seq: p.seq, previousSeq: 0 }, i === 0 ? moved : 0),
        ),
        headers: { 'x-event-id': p.event.id },
      })),
    );
  }

  private async saveSnapshot(fold: LadderFold, lastEventId: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const snapshots = new LadderSnapshots(sqlOf(manager));
      await snapshots.save(fold, lastEventId);
      await snapshots.prune(fold.ladder, this.options.snapshotsKept);
    });
  }

  private configOf(id: string): LadderConfig {
    const ladder = this.ladders.get(id);
    if (!ladder) throw new Error(`no ladder ${id} is configured`);
    return ladder;
  }
}

/**
 * A store that adds up the seconds spent in it: firstCovered, the snapshot read, the event
 * batches as long as the fold waited for them, and all its calls. It answers firstCovered once
 * per annulment: the refolder asks it before foldFromStore does, each a scan of the ladder's
 * games, and the read transaction sees one moment of the store.
 */
class TimedStore extends ForwardingLadderStore {
  private readonly firsts = new Map<string, Promise<number | null>>();
  coveredSeconds = 0;
  snapshotSeconds = 0;
  eventSeconds = 0;
  /** Every call's seconds. */
  totalSeconds = 0;

  private async timed<T>(work: Promise<T>, add?: (s: number) => void): Promise<T> {
    const started = process.hrtime.bigint();
    const result = await work;
    const s = seconds(started);
    add?.(s);
    this.totalSeconds += s;
    return result;
  }

  override async *events(
    ladder: string,
    after: number,
    upTo: number,
  ): AsyncGenerator<readonly LadderEvent[]> {
    const batches = this.store.events(ladder, after, upTo)[Symbol.asyncIterator]();
    for (;;) {
      const next = await this.timed(batches.next(), (s) => (this.eventSeconds += s));
      if (next.done === true) return;
      yield next.value;
    }
  }

  override lastPosition(ladder: string) {
    return this.timed(this.store.lastPosition(ladder));
  }

  override annulments(ladder: string) {
    return this.timed(this.store.annulments(ladder));
  }

  override firstCovered(ladder: string, annulment: Annulment) {
    const key = JSON.stringify([ladder, annulment.player, annulment.since, annulment.position]);
    let first = this.firsts.get(key);
    if (first === undefined) {
      first = this.timed(
        this.store.firstCovered(ladder, annulment),
        (s) => (this.coveredSeconds += s),
      );
      this.firsts.set(key, first);
    }
    return first;
  }

  override snapshotPositions(ladder: string) {
    return this.timed(this.store.snapshotPositions(ladder));
  }

  override snapshot(ladder: string, position: number) {
    return this.timed(this.store.snapshot(ladder, position), (s) => (this.snapshotSeconds += s));
  }
}

/** The stored players read before the lock and the re-fold's diff against them. */
interface EarlyDiff {
  /** The seq of the first pending annulment it was made for. */
  readonly first: number;
  readonly stored: {
    readonly players: ReadonlyMap<string, PlayerState>;
    readonly skills: ReadonlyMap<string, SkillState>;
  };
  readonly diff: RefoldDiff;
}

/** The swap found an annulment newer than the re-fold's read: it is re-folded again. */
class AnnulledMeanwhile extends Error {}

/** The ladder's pending annulments up to a position, in log order. */
const pendingOf = (sql: Sql, ladder: string, upTo: number): Promise<Pending[]> =>
  new PendingAnnulmentRepository(sql).pendingOf(ladder, upTo);

/** Every player of the ladder as stored, with the estimates of those that have one. */
async function storedPlayers(repo: PlayerRepository, ladder: string) {
  const players = new Map<string, PlayerState>();
  const skills = new Map<string, SkillState>();
  for (let after: string | null = null; ;) {
    const page = await repo.playersWithSkillAfter(ladder, after, PAGE);
    if (page.players.length === 0) return { players, skills };
    for (const p of page.players) players.set(p.id, p);
    for (const s of page.skills) skills.set(s.id, s);
    after = page.players[page.players.length - 1]!.id;
  }
}
