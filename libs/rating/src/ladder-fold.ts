import {
  type GameCorrected,
  type GameFinished,
  instantMillis,
  type LadderEvent,
  type PeriodClosed,
  type PlayerAnnulled,
  type PlayerPenalized,
  type Rejection,
  type VoidReason,
} from '@ranking/contracts';
import {
  type Annulment,
  annulmentOf,
  annulmentsOf,
  annulmentWhy,
  Coverage,
  coveredDecision,
  refoldChanges,
} from './annulment.js';
import { applyEffect, type GameTime } from './effect-application.js';
import { decideCorrection, decideGame, type GameDecision } from './game-decision.js';
import { GameBook } from './game-book.js';
import type { GameRecord } from './game-record.js';
import type { LadderConfig } from './ladder-config.js';
import { LadderLog } from './ladder-log.js';
import { penalize } from './penalty.js';
import { PeriodCalendar, type PeriodWindow } from './period-clock.js';
import type { PlayerChange } from './player-change.js';
import { copyPlayer, newPlayer, type PlayerState } from './player-state.js';
import { GamePlayers, PlayerTable, PlayerTableView } from './player-table.js';
import type { RuleSet } from './rule-set.js';
import { RULE_SETS } from './rule-sets.js';
import { SkillBook, type SkillChange, type SkillSnapshot } from './skill-book.js';
import { decodeSkillGame, encodeSkillGame } from './skill-record-codec.js';
import { decodeRecord } from './game-record-codec.js';

/** What one event did to a ladder. */
export type LadderOutcome =
  | { readonly status: 'rejected'; readonly rejection: Rejection }
  | { readonly status: 'void'; readonly reason: VoidReason }
  | {
      readonly status: 'applied';
      readonly changes: readonly PlayerChange[];
      readonly disconnectPenalties: readonly { player: string; ordinal: number }[];
      /** How the skill estimate moved, when the fold keeps one (`FoldOptions.skill`). */
      readonly skill?: readonly SkillChange[];
    };

/** A game as the rating service stores it: id, encoded record, encoded saved estimates (or null). */
export type GameRow = readonly [id: string, record: string, skill: string | null];

/** A ladder's whole state as plain data (JSON-safe). */
export interface LadderSnapshot {
  readonly ladder: string;
  readonly players: readonly PlayerState[];
  readonly games: readonly GameRecord[];
  readonly closed: readonly string[];
  readonly accepted: number;
  /** The ladder's log as JSON texts, when the fold keeps it (see `FoldOptions.keepLog`). */
  readonly log?: readonly string[];
  /** The skill estimate, when the fold keeps one (see `FoldOptions.skill`). */
  readonly skill?: SkillSnapshot;
  /**
   * More game records, as stored (`GameRow`s: a snapshot's): kept as text by the restored fold
   * until an event reads one, since a correction reaches back to few of a ladder's games.
   */
  readonly storedGames?: readonly GameRow[];
}

export interface FoldOptions {
  /**
   * Keep the ladder's log (accepted events, as text), so that a `player.annulled` can re-fold
   * the ladder from its start. Without it, an annulment fails with an error: a fold restored
   * from stored rows holds no log, and a caller holding one folds it with `LadderFold.fromLog`.
   */
  readonly keepLog?: boolean;
  /**
   * Keep the skill estimate beside the official state (`SkillBook`, ADR 19): a second projection
   * that the official decisions feed and never read. Off, it costs the fold one test per game.
   */
  readonly skill?: boolean;
}

const NOTHING: LadderOutcome = { status: 'applied', changes: [], disconnectPenalties: [] };

/** How a closed period is named among a ladder's closes (snapshots and the store keep it so). */
export const closedPeriodKey = (period: PeriodClosed['period'], key: string): string =>
  `${period}:${key}`;

/** The instant an event happens at, in epoch ms (for period closes, the close itself). */
export function eventInstant(event: LadderEvent, calendar: PeriodCalendar): number {
  switch (event.type) {
    case 'game.finished':
      return instantMillis(event.finishedAt);
    case 'game.corrected':
      return instantMillis(event.correctedAt);
    case 'player.penalized':
      return instantMillis(event.at);
    case 'period.closed':
      return calendar.window(event.period, event.key).closesAt;
    case 'player.annulled':
      return instantMillis(event.annulledAt);
  }
}

/**
 * One ladder's state in memory, folded event by event: the projection that the offline
 * replay, the rebuild, the rating service and the tests use. Decisions come from the pure
 * functions (game-decision.ts, the rule sets); the fold owns the state they are applied to:
 * players interned to numbers with their fields in typed arrays (player-table.ts), changed in
 * place, and game records kept in columns (game-book.ts), because a ladder is re-folded from
 * its whole log by replays and rebuilds.
 */
export class LadderFold {
  readonly rules: RuleSet;
  readonly calendar: PeriodCalendar;
  private table: PlayerTable;
  /** The players, by id (states built when read). Read them between events: the fold goes on. */
  readonly players: ReadonlyMap<string, PlayerState> = new PlayerTableView(() => this.table);
  /** The players of the game being decided. */
  private readonly gamePlayers: GamePlayers;
  private book: GameBook;
  private readonly closed = new Set<string>();
  /** Players (numbers) written since `restore` (null: a fresh fold, where every player counts as written). */
  private written: Set<number> | null = null;
  /** Events this ladder accepted (applied or void). */
  accepted = 0;
  /** The ladder's log, when kept (`FoldOptions.keepLog`). */
  private log: LadderLog | null;
  /** While `fromLog` folds a log: the annulments in it, and so the games they cover. */
  private coverage: Coverage | null = null;
  /** Events passed to `evolve`: in `fromLog`, the position in the log of the next one. */
  private evolved = 0;
  /** The skill estimate, when kept. */
  private skillBook: SkillBook | null;
  /** Game rows restored as text and not read yet (`LadderSnapshot.storedGames`), by game id. */
  private stored: Map<string, readonly [record: string, skill: string | null]> | null = null;

  constructor(
    readonly ladder: LadderConfig,
    options: FoldOptions = {},
  ) {
    this.rules = RULE_SETS[ladder.ruleSet];
    this.calendar = PeriodCalendar.of(ladder.timezone);
    this.book = new GameBook(this.rules);
    this.table = new PlayerTable(ladder);
    this.gamePlayers = new GamePlayers(this.table, ladder);
    this.log = options.keepLog === true ? new LadderLog() : null;
    this.skillBook = options.skill === true ? new SkillBook() : null;
  }

  /** The skill estimate, when the fold keeps one. */
  get skill(): SkillBook | null {
    return this.skillBook;
  }

  /**
   * The fold of a ladder's whole log from its start, annulments included (RULES.md
   * "Annulment"): each game that an annulment standing after it covers is folded as usual and
   * then kept only as played, and everything else is folded from the state that leaves. This is
   * the one definition of a ladder's state; folding the same events one by one with a kept log
   * reaches the same state. The log is read twice when `annulments` is not given: a caller that
   * streams it (from the event store) passes them, their positions counted in the log it passes.
   * The fold synthesizes nothing: closes and penalties are folded where they stand.
   */
  static fromLog(
    ladder: LadderConfig,
    log: Iterable<LadderEvent>,
    annulments: readonly Annulment[] = annulmentsOf(log),
    options: FoldOptions = {},
  ): LadderFold {
    const fold = LadderFold.refolding(ladder, annulments, options);
    for (const event of log) fold.evolve(event);
    fold.coverage = null;
    return fold;
  }

  /**
   * A fold to hand a ladder's log to event by event from its start (`evolve`), with the
   * annulments of that log known up front (positions counted in it): `fromLog` for a log that
   * arrives as a stream, as the event store's does. Only for that one log, read to its end.
   */
  static refolding(
    ladder: LadderConfig,
    annulments: readonly Annulment[],
    options: FoldOptions = {},
  ): LadderFold {
    const fold = new LadderFold(ladder, options);
    fold.coverage = new Coverage(annulments);
    return fold;
  }

  /** Plain data that `LadderFold.restore` turns back into the same fold (copies: the fold goes on). */
  snapshot(): LadderSnapshot {
    for (const id of [...(this.stored?.keys() ?? [])]) this.promote(id);
    return {
      ladder: this.ladder.id,
      players: [...this.players.values()].map(copyPlayer),
      games: [...this.book.records()],
      closed: [...this.closed],
      accepted: this.accepted,
      ...(this.log ? { log: this.log.snapshot() } : {}),
      ...(this.skillBook ? { skill: this.skillBook.snapshot() } : {}),
    };
  }

  /**
   * A fold resumed from a snapshot. From here on it tracks what it writes, so that a store can
   * write back only that (`changedPlayers`, `changedGames`).
   */
  static restore(ladder: LadderConfig, snapshot: LadderSnapshot): LadderFold {
    const fold = new LadderFold(ladder);
    for (const p of snapshot.players) fold.table.put(p);
    for (const g of snapshot.games) fold.book.addRecord(g);
    for (const c of snapshot.closed) fold.closed.add(c);
    fold.accepted = snapshot.accepted;
    if (snapshot.log) fold.log = LadderLog.of(snapshot.log);
    if (snapshot.skill) fold.skillBook = SkillBook.restore(snapshot.skill);
    if (snapshot.storedGames && snapshot.storedGames.length > 0)
      fold.stored = new Map(
        snapshot.storedGames.map(([id, record, skill]) => [id, [record, skill]]),
      );
    fold.written = new Set();
    fold.book.markUnchanged();
    return fold;
  }

  /**
   * A fold of a ladder's log resumed from a snapshot of its first `snapshot.accepted` events, to
   * hand the rest of that log to (`evolve`), with the annulments of the whole log known up front
   * (positions counted in it): `refolding` from a snapshot. Only valid when no annulment standing
   * at or after the snapshot covers a game before it (`foldFromStore` checks this); those before
   * it are in the snapshot's state already.
   */
  static resuming(
    ladder: LadderConfig,
    snapshot: LadderSnapshot,
    annulments: readonly Annulment[],
  ): LadderFold {
    const fold = LadderFold.restore(ladder, snapshot);
    fold.evolved = snapshot.accepted;
    fold.coverage = new Coverage(annulments.filter((a) => a.position >= snapshot.accepted));
    return fold;
  }

  /** From here on, `changedPlayers` and `changedGameRows` list only what the fold writes next. */
  markWritten(): void {
    this.written = new Set();
    this.book.markUnchanged();
    this.skillBook?.markWritten();
  }

  /** The players this fold wrote since it was restored (all of them for a fresh fold). */
  changedPlayers(): PlayerState[] {
    const written = this.written;
    if (written === null) return [...this.players.values()];
    return [...written].map((i) => this.table.state(i));
  }

  /** The game records added or rewritten since the fold was restored, encoded, by game id. */
  changedGames(): Map<string, string> {
    const changed = new Map<string, string>();
    for (const id of this.book.changes()) changed.set(id, this.book.encoded(id)!);
    return changed;
  }

  /** Every game record, encoded as the rating service stores it (those still stored as text first). */
  *encodedGames(): Generator<[string, string]> {
    for (const [id, [record]] of this.stored ?? []) yield [id, record];
    yield* this.book.encodedRecords();
  }

  /** Every game as the rating service stores it: its record and saved estimates (null without a skill book). */
  *gameRows(): Generator<GameRow> {
    for (const [id, [record, saved]] of this.stored ?? [])
      yield [id, record, this.skillBook === null ? null : saved];
    const skill = this.skillBook;
    for (const [id, record] of this.book.encodedRecords()) {
      const saved = skill?.savedGame(id);
      yield [id, record, saved === undefined ? null : encodeSkillGame(saved)];
    }
  }

  /** The games written since the fold was restored (record or saved estimates), as stored rows. */
  changedGameRows(): GameRow[] {
    const ids = new Set(this.book.changes());
    for (const g of this.skillBook?.changedGames() ?? []) ids.add(g.id);
    return [...ids].map((id) => {
      const saved = this.skillBook?.savedGame(id);
      return [id, this.book.encoded(id)!, saved === undefined ? null : encodeSkillGame(saved)];
    });
  }

  /** The periods this ladder closed, as `period:key`. */
  closedPeriods(): string[] {
    return [...this.closed];
  }

  /** How many games the ladder keeps a record of. */
  get games(): number {
    return this.book.size + (this.stored?.size ?? 0);
  }

  /** A game still stored as text, decoded into the book (and its saved estimates) to be read. */
  private promote(gameId: string): void {
    const row = this.stored?.get(gameId);
    if (row === undefined) return;
    this.stored!.delete(gameId);
    const record = decodeRecord(gameId, row[0], this.rules);
    this.book.addRecord(record);
    if (row[1] !== null && this.skillBook !== null)
      this.skillBook.addSaved(
        gameId,
        decodeSkillGame(
          row[1],
          record.players.map((p) => p.id),
        ),
      );
  }

  isClosed(period: PeriodClosed['period'], key: string): boolean {
    return this.closed.has(closedPeriodKey(period, key));
  }

  /** Whether closing this period changes players (the rule set acts on it) or only marks it. */
  closeActs(period: PeriodClosed['period']): boolean {
    return this.rules.closePeriod !== undefined && this.rules.closes.includes(period);
  }

  /** A player's state (a new player's when the ladder has not seen the id). */
  player(id: string): PlayerState {
    const i = this.table.find(id);
    return i < 0 ? newPlayer(id, this.ladder) : this.table.state(i);
  }

  /** Sets a player's state outright (the fold keeps its own copy): for tests and tools. */
  setPlayer(state: PlayerState): void {
    const i = this.table.put(state);
    this.written?.add(i);
  }

  evolve(event: LadderEvent): LadderOutcome {
    const outcome = this.decide(event, this.evolved++);
    if (outcome.status !== 'rejected') {
      this.accepted += 1;
      this.log?.append(event);
    }
    return outcome;
  }

  /** Whether the event would be rejected, without changing anything. */
  rejectionOf(event: LadderEvent): Rejection | null {
    if (event.type === 'game.finished') {
      const time = { finishedAt: instantMillis(event.finishedAt), calendar: this.calendar };
      const decision = this.decideFinished(event, time);
      return decision.status === 'rejected' ? decision.rejection : null;
    }
    if (event.type === 'game.corrected') {
      this.promote(event.gameId);
      const decision = decideCorrection(
        this.ladder,
        this.rules,
        event,
        this.book.record(event.gameId),
      );
      return decision.status === 'rejected' ? decision.rejection : null;
    }
    return null;
  }

  private decide(event: LadderEvent, position: number): LadderOutcome {
    switch (event.type) {
      case 'game.finished':
        return this.finish(event, position);
      case 'game.corrected':
        return this.correct(event);
      case 'player.penalized':
        return this.penalize(event);
      case 'period.closed':
        return this.close(this.calendar.window(event.period, event.key));
      case 'player.annulled':
        return this.annul(event, position);
    }
  }

  /** The player's number, the player added when the ladder has not seen the id; written. */
  private numberOf(id: string): number {
    const i = this.table.intern(id);
    this.written?.add(i);
    return i;
  }

  /** The decision on a game, its players' numbers in `gamePlayers` (-1 for new ones, not yet kept). */
  private decideFinished(event: GameFinished, time: GameTime): GameDecision {
    const numbers = this.gamePlayers.numbers;
    // A game of more players than it has slots is rejected (player count) before any is read.
    for (let i = 0; i < event.players.length; i++)
      numbers[i] = this.table.find(event.players[i]!.id);
    return decideGame(this.ladder, this.rules, event, this.gamePlayers, time);
  }

  private finish(event: GameFinished, position: number): LadderOutcome {
    // A repeated game id supersedes the stored record: it must be in the book to be superseded.
    this.promote(event.gameId);
    const finishedAt = instantMillis(event.finishedAt);
    const time = { finishedAt, calendar: this.calendar };
    const decided = this.decideFinished(event, time);
    if (decided.status === 'rejected') return decided;
    const annulment = this.coverage?.of(event, finishedAt, position) ?? null;
    const decision =
      annulment === null ? decided : coveredDecision(decided, annulmentWhy(annulment));
    if (decision.status === 'rejected') return decision;
    const changes: PlayerChange[] = [];
    const ids: string[] = [];
    const numbers = this.gamePlayers.numbers;
    const table = this.table;
    for (let i = 0; i < event.players.length; i++) {
      let n = numbers[i]!;
      if (decision.status !== 'scored') {
        // The table's own id string when it has one: the game record keeps it, not the event's copy.
        ids.push(n < 0 ? event.players[i]!.id : table.id(n));
        continue;
      }
      if (n < 0) n = table.add(event.players[i]!.id);
      const id = table.id(n);
      ids.push(id);
      this.written?.add(n);
      const effect = decision.effects[i]!;
      const before = table.rating(n);
      const counter = decision.counters === null ? null : decision.counters[i]!;
      applyEffect(table, n, effect, 1, this.rules, time, counter);
      const after = table.rating(n);
      changes.push({
        player: id,
        before,
        after,
        delta: after - before,
        result: effect.result,
        why: effect.why,
      });
    }
    const { setting, before } = decision.game;
    const effects = decision.status === 'scored' ? decision.effects : null;
    const voidReason = decision.status === 'void' ? decision.reason : null;
    this.book.add(
      event.gameId,
      finishedAt,
      event.moves,
      setting,
      event.players,
      ids,
      before,
      effects,
      voidReason,
      annulment !== null,
    );
    // The skill estimate counts the games the ladder scores (result-only ones too), never a
    // void, covered or merely recorded one; it saves every game the book keeps, for corrections.
    const skill =
      this.skillBook?.game(
        event.gameId,
        ids,
        effects === null || annulment !== null
          ? null
          : this.rules.skillMatch(event.players, effects),
        finishedAt,
      ) ?? null;
    switch (decision.status) {
      case 'void':
        return { status: 'void', reason: decision.reason };
      case 'recorded':
        return skill === null
          ? NOTHING
          : { status: 'applied', changes: [], disconnectPenalties: [], skill };
      case 'scored':
        return {
          status: 'applied',
          changes,
          disconnectPenalties: decision.disconnectPenalties,
          ...(skill === null ? {} : { skill }),
        };
    }
  }

  private correct(event: GameCorrected): LadderOutcome {
    this.promote(event.gameId);
    const record = this.book.record(event.gameId);
    const decision = decideCorrection(this.ladder, this.rules, event, record);
    if (decision.status === 'rejected') return decision;
    if (decision.status === 'unchanged') return NOTHING;
    const time = { finishedAt: record!.finishedAt, calendar: this.calendar };
    const changes: PlayerChange[] = [];
    const table = this.table;
    for (let i = 0; i < record!.players.length; i++) {
      const n = this.numberOf(record!.players[i]!.id);
      const before = table.rating(n);
      applyEffect(table, n, decision.previous[i]!, -1, this.rules, time);
      applyEffect(table, n, decision.effects[i]!, 1, this.rules, time);
      const after = table.rating(n);
      changes.push({
        player: table.id(n),
        before,
        after,
        delta: after - before,
        result: decision.effects[i]!.result,
        why: decision.why,
      });
    }
    this.book.rewrite(event.gameId, decision.players, decision.effects);
    const skill =
      this.skillBook?.correct(
        event.gameId,
        event.void === true ? null : this.rules.skillMatch(decision.players, decision.effects),
      ) ?? null;
    return {
      status: 'applied',
      changes,
      disconnectPenalties: [],
      ...(skill === null ? {} : { skill }),
    };
  }

  private penalize(event: PlayerPenalized): LadderOutcome {
    const policy = this.rules.penalties;
    if (!policy) return NOTHING;
    const n = this.numberOf(event.player);
    const before = this.table.rating(n);
    const floor = policy.floor(this.ladder);
    const after = penalize(before, event.points, floor);
    this.table.setRating(n, after);
    const why = { kind: 'penalty' as const, reason: event.reason, points: event.points, floor };
    const change = {
      player: this.table.id(n),
      before,
      after,
      delta: after - before,
      result: null,
      why,
    };
    return { status: 'applied', changes: [change], disconnectPenalties: [] };
  }

  /**
   * An annulment: the ladder becomes the fold of its whole log with the games it covers kept
   * only as played (`fromLog`), and every player that changed is reported. One that covers no
   * game it does not already cover changes nothing and re-folds nothing.
   */
  private annul(event: PlayerAnnulled, position: number): LadderOutcome {
    // Folding a log with its annulments known: this one's games are covered already.
    if (this.coverage?.standsAt(position)) return NOTHING;
    const log = this.log;
    if (log === null)
      throw new Error(
        `ladder ${this.ladder.id}: player.annulled ${event.id} re-folds the ladder from its log, which this fold does not keep`,
      );
    const annulment = annulmentOf(event, log.length);
    const annulments = [...log.annulments, annulment];
    const earlier = new Coverage(log.annulments);
    const added = new Coverage([annulment]);
    let at = 0;
    let covers = false;
    for (const e of log.events()) {
      if (e.type === 'game.finished') {
        const finishedAt = instantMillis(e.finishedAt);
        if (added.of(e, finishedAt, at) && !earlier.of(e, finishedAt, at)) {
          covers = true;
          break;
        }
      }
      at++;
    }
    if (!covers) return NOTHING;
    const refolded = LadderFold.fromLog(this.ladder, withLast(log.events(), event), annulments, {
      skill: this.skillBook !== null,
    });
    if (refolded.accepted !== log.length + 1)
      throw new Error(
        `ladder ${this.ladder.id}: the re-fold for ${event.id} rejected an event the ladder had accepted`,
      );
    const changes = refoldChanges(this.players, refolded.players, annulmentWhy(annulment));
    const skill = this.skillBook?.changesTo(refolded.skillBook!) ?? null;
    this.adopt(refolded);
    return {
      status: 'applied',
      changes,
      disconnectPenalties: [],
      ...(skill === null ? {} : { skill }),
    };
  }

  /** Takes over a re-fold's state (players, game records, closes); the log stays this fold's. */
  private adopt(refolded: LadderFold): void {
    this.table = refolded.table;
    this.gamePlayers.table = refolded.table;
    // A restored fold writes every player back: the re-fold may have moved any of them.
    if (this.written !== null) {
      this.written = new Set();
      for (let i = 0; i < this.table.size; i++) this.written.add(i);
    }
    // The new book lists every record as changed, so a restored fold writes them all back.
    this.book = refolded.book;
    this.stored = refolded.stored;
    this.closed.clear();
    for (const c of refolded.closed) this.closed.add(c);
    this.skillBook = refolded.skillBook;
  }

  /** Closes a period once; the rule set acts on every player. */
  close(window: PeriodWindow): LadderOutcome {
    const id = closedPeriodKey(window.period, window.key);
    if (this.closed.has(id)) return NOTHING;
    this.closed.add(id);
    const rules = this.rules;
    if (!rules.closePeriod || !this.closeActs(window.period)) return NOTHING;
    const changes: PlayerChange[] = [];
    const table = this.table;
    for (let i = 0; i < table.size; i++) {
      const player = table.state(i);
      const result = rules.closePeriod(window, player, this.ladder);
      if (!result) continue;
      // The rule set built a new state (updatePlayer): the table takes its fields.
      table.write(i, result.player);
      this.written?.add(i);
      if (result.why) {
        const after = result.player.rating;
        changes.push({
          player: player.id,
          before: player.rating,
          after,
          delta: after - player.rating,
          result: null,
          why: result.why,
        });
      }
    }
    return { status: 'applied', changes, disconnectPenalties: [] };
  }
}

/** The events, then one more. */
function* withLast(events: Iterable<LadderEvent>, last: LadderEvent): Generator<LadderEvent> {
  yield* events;
  yield last;
}
