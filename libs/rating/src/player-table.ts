import { type DisconnectCounter, NO_DISCONNECTS } from './disconnect-policy.js';
import type { PlayersBefore } from './game-decision.js';
import type { LadderConfig } from './ladder-config.js';
import { PeriodColumns } from './period-columns.js';
import { newPlayer, type PlayerSnapshot, type PlayerState, snapshotOf } from './player-state.js';

const FIRST_CAPACITY = 64;

/** A player's numbers: its row in `PlayerTable.num`, `NUM` entries a player. */
export const RATING = 0;
export const GAMES = 1;
export const WINS = 2;
export const LOSSES = 3;
export const DRAWS = 4;
export const RATED_GAMES = 5;
/** Epoch ms; NaN for none (`PlayerState.firstRatedAt` null). */
export const FIRST_RATED_AT = 6;
export const CAPTURES = 7;
export const NUM = 8;
/** A player's small integers: its row in `PlayerTable.small`, `SMALL` entries a player. */
export const DISCONNECTS = 0;
export const CLEAN_STREAK = 1;
export const DISCONNECT_PENALTIES = 2;
export const LEVEL = 3;
/** 0 or 1. */
export const TERRITORY = 4;
export const SMALL = 8;

/**
 * A ladder's players as a fold keeps them: each id interned once to a number (its place in
 * arrival order), its fields in rows of two typed arrays: the numbers a game adds to in one
 * row of 8 float64 (64 bytes), the small integers (disconnect counter, level, stage) in one
 * row of 8 int32. A game reads and writes a few cache lines of flat memory per player instead
 * of chasing scattered objects, and the collector has nothing to trace but the ids. (Measured:
 * one typed array per field, struct of arrays, was slower here: a game touches a dozen fields
 * of each of its players, so a dozen scattered lines a player.) Period counts are columns too
 * (`PeriodColumns`: two open periods a player in one row). `state` builds a `PlayerState` to
 * read, its period counts fresh arrays.
 */
export class PlayerTable {
  private readonly index = new Map<string, number>();
  private readonly ids: string[] = [];
  private capacity = FIRST_CAPACITY;
  /** Row i * NUM: RATING .. CAPTURES. */
  num = new Float64Array(FIRST_CAPACITY * NUM);
  /** Row i * SMALL: DISCONNECTS .. TERRITORY. */
  small = new Int32Array(FIRST_CAPACITY * SMALL);
  /** Rated games a week, a month; valid captures a day (xinbo): see PeriodColumns. */
  readonly weekGames = new PeriodColumns();
  readonly monthGames = new PeriodColumns();
  readonly dayCaptures = new PeriodColumns();

  constructor(private readonly ladder: LadderConfig) {}

  get size(): number {
    return this.ids.length;
  }

  /** The player's number, or -1 when the ladder has not seen the id. */
  find(id: string): number {
    return this.index.get(id) ?? -1;
  }

  /** The player's number, the player added in its start state when new. */
  intern(id: string): number {
    const found = this.index.get(id);
    return found === undefined ? this.add(id) : found;
  }

  /** The id of player `i`: the table's own string, which records keep instead of an event's copy. */
  id(i: number): string {
    return this.ids[i]!;
  }

  rating(i: number): number {
    return this.num[i * NUM + RATING]!;
  }

  setRating(i: number, rating: number): void {
    this.num[i * NUM + RATING] = rating;
  }

  /** A new player in the ladder's start state (RULES.md: every ladder's start). */
  add(id: string): number {
    const i = this.ids.length;
    if (i === this.capacity) this.grow();
    this.ids.push(id);
    this.index.set(id, i);
    // The start state has one definition (newPlayer): a new player is rare next to its games.
    this.write(i, newPlayer(id, this.ladder));
    return i;
  }

  /** Player `i` as a `PlayerState`, fields in `newPlayer`'s one order (see the class note). */
  state(i: number): PlayerState {
    const n = i * NUM;
    const s = i * SMALL;
    const num = this.num;
    const small = this.small;
    const first = num[n + FIRST_RATED_AT]!;
    return {
      id: this.ids[i]!,
      rating: num[n + RATING]!,
      games: num[n + GAMES]!,
      wins: num[n + WINS]!,
      losses: num[n + LOSSES]!,
      draws: num[n + DRAWS]!,
      ratedGames: num[n + RATED_GAMES]!,
      firstRatedAt: Number.isNaN(first) ? null : first,
      weekGames: this.weekGames.get(i),
      monthGames: this.monthGames.get(i),
      disconnects: small[s + DISCONNECTS]!,
      cleanStreak: small[s + CLEAN_STREAK]!,
      disconnectPenalties: small[s + DISCONNECT_PENALTIES]!,
      level: small[s + LEVEL]!,
      territory: small[s + TERRITORY] === 1,
      captures: num[n + CAPTURES]!,
      dayCaptures: this.dayCaptures.get(i),
    };
  }

  /** Sets player `i` from a state (its period counts copied). */
  write(i: number, p: PlayerState): void {
    const n = i * NUM;
    const s = i * SMALL;
    const num = this.num;
    const small = this.small;
    num[n + RATING] = p.rating;
    num[n + GAMES] = p.games;
    num[n + WINS] = p.wins;
    num[n + LOSSES] = p.losses;
    num[n + DRAWS] = p.draws;
    num[n + RATED_GAMES] = p.ratedGames;
    num[n + FIRST_RATED_AT] = p.firstRatedAt ?? NaN;
    num[n + CAPTURES] = p.captures;
    small[s + DISCONNECTS] = p.disconnects;
    small[s + CLEAN_STREAK] = p.cleanStreak;
    small[s + DISCONNECT_PENALTIES] = p.disconnectPenalties;
    small[s + LEVEL] = p.level;
    small[s + TERRITORY] = p.territory ? 1 : 0;
    this.weekGames.set(i, p.weekGames);
    this.monthGames.set(i, p.monthGames);
    this.dayCaptures.set(i, p.dayCaptures);
  }

  /** Adds (or sets) a player from a state; returns its number. */
  put(p: PlayerState): number {
    const i = this.intern(p.id);
    this.write(i, p);
    return i;
  }

  /** What a game's computation reads of player `i` (game-decision.ts), on the game's local day. */
  snapshot(i: number, dayKey: string | null): PlayerSnapshot {
    return {
      rating: this.num[i * NUM + RATING]!,
      level: this.small[i * SMALL + LEVEL]!,
      territory: this.small[i * SMALL + TERRITORY] === 1,
      dayTally: dayKey === null ? 0 : this.dayCaptures.count(i, dayKey),
    };
  }

  /** Player `i`'s disconnect counter. */
  counter(i: number): DisconnectCounter {
    const s = i * SMALL;
    return {
      count: this.small[s + DISCONNECTS]!,
      streak: this.small[s + CLEAN_STREAK]!,
      penalties: this.small[s + DISCONNECT_PENALTIES]!,
    };
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const num = new Float64Array(capacity * NUM);
    num.set(this.num);
    const small = new Int32Array(capacity * SMALL);
    small.set(this.small);
    this.num = num;
    this.small = small;
    this.capacity = capacity;
    this.weekGames.grow(capacity);
    this.monthGames.grow(capacity);
    this.dayCaptures.grow(capacity);
  }
}

/**
 * The players of a game as a decision reads them (`PlayersBefore`), by their numbers in a table
 * (-1: not in it yet, read as a new player). One per fold, refilled for each game.
 */
export class GamePlayers implements PlayersBefore {
  /** Per slot: the player's number, or -1 for a player the ladder has not seen. */
  readonly numbers = new Int32Array(MAX_SLOTS);
  private readonly fresh: PlayerSnapshot;

  constructor(
    /** The fold's table (an annulment gives the fold a new one, and it sets it here). */
    public table: PlayerTable,
    ladder: LadderConfig,
  ) {
    this.fresh = startSnapshot(ladder);
  }

  snapshot(slot: number, dayKey: string | null): PlayerSnapshot {
    const n = this.numbers[slot]!;
    return n < 0 ? this.fresh : this.table.snapshot(n, dayKey);
  }

  counter(slot: number): DisconnectCounter {
    const n = this.numbers[slot]!;
    return n < 0 ? NO_DISCONNECTS : this.table.counter(n);
  }
}

/** More players than any rule set's games have (card-points plays 4, squares up to 4). */
const MAX_SLOTS = 32;

/** What a decision reads of a player new to the ladder. */
const startSnapshot = (ladder: LadderConfig): PlayerSnapshot =>
  Object.freeze(snapshotOf(newPlayer('', ladder), null));

/** Players of games that change no state: every one new (disconnect-tally.ts decides on those). */
export const newPlayersBefore = (ladder: LadderConfig): PlayersBefore => ({
  snapshot: () => startSnapshot(ladder),
  counter: () => NO_DISCONNECTS,
});

/**
 * A table's players as a `ReadonlyMap` by id, in arrival order; states are built when read.
 * It reads the table its owner holds now (`table`), which an annulment replaces.
 */
export class PlayerTableView implements ReadonlyMap<string, PlayerState> {
  constructor(private readonly current: () => PlayerTable) {}

  private get table(): PlayerTable {
    return this.current();
  }

  get size(): number {
    return this.table.size;
  }
  get(id: string): PlayerState | undefined {
    const i = this.table.find(id);
    return i < 0 ? undefined : this.table.state(i);
  }
  has(id: string): boolean {
    return this.table.find(id) >= 0;
  }
  *entries(): MapIterator<[string, PlayerState]> {
    for (let i = 0; i < this.table.size; i++) yield [this.table.id(i), this.table.state(i)];
  }
  *keys(): MapIterator<string> {
    for (let i = 0; i < this.table.size; i++) yield this.table.id(i);
  }
  *values(): MapIterator<PlayerState> {
    for (let i = 0; i < this.table.size; i++) yield this.table.state(i);
  }
  [Symbol.iterator](): MapIterator<[string, PlayerState]> {
    return this.entries();
  }
  forEach(
    callback: (value: PlayerState, key: string, map: ReadonlyMap<string, PlayerState>) => void,
    thisArg?: unknown,
  ): void {
    for (let i = 0; i < this.table.size; i++)
      callback.call(thisArg, this.table.state(i), this.table.id(i), this);
  }
}
