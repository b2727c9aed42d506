import { float64Column, int32Column, ValueColumn } from './columns.js';
import { IdIndex } from './id-index.js';

/**
 * What a game keeps for a later correction: its finish, then per player (in the event's order)
 * the estimate before the game and after it as it now counts (equal when it does not count).
 */
export interface SkillGame {
  readonly finishedAt: number;
  readonly players: readonly string[];
  /** mu, sigma before; mu, sigma after: four numbers per player. */
  readonly skills: readonly number[];
}

/**
 * The saved games of a skill book, kept compactly: game ids numbered by an `IdIndex` (no string
 * or map entry each), per game its finish and where its players start in columns, the players'
 * ids by reference (the fold's own strings) and their four numbers each in typed-array chunks
 * (columns.ts). A ladder keeps every game for as long as it lives and a replay folds a million:
 * kept as a map entry, an object and two arrays each, they cost the collector about as much as
 * rating them (ADR 19).
 */
export class SkillGames {
  private readonly index = new IdIndex();
  // Per game, by its number in the index.
  private readonly finishes = float64Column();
  /** Where the game's players start in the per-player columns. */
  private readonly starts = int32Column();
  private readonly counts = int32Column();
  // Per player of a game.
  private players = 0;
  private readonly ids = new ValueColumn<string>();
  /** mu, sigma before; mu, sigma after: four per player. */
  private readonly numbers = float64Column();

  get size(): number {
    return this.index.size;
  }

  /** The game ids, in the order they were first saved. */
  *gameIds(): Generator<string> {
    for (let n = 0; n < this.index.size; n++) yield this.index.idOf(n);
  }

  /** The slot of a saved game, or -1. */
  slotOf(gameId: string): number {
    return this.index.find(gameId);
  }

  /**
   * Saves a game's finish and players (replacing a game of the same id: its slot stays) and
   * returns its slot, whose numbers the caller writes (`write`).
   */
  add(gameId: string, finishedAt: number, players: readonly string[]): number {
    const known = this.index.size;
    const slot = this.index.add(gameId);
    if (slot === known || this.counts.get(slot) !== players.length) {
      // New, or replaced by a game of another size: room after the last game's players.
      this.starts.set(slot, this.players);
      this.counts.set(slot, players.length);
      this.players += players.length;
    }
    this.finishes.set(slot, finishedAt);
    const start = this.starts.get(slot);
    for (let i = 0; i < players.length; i++) this.ids.set(start + i, players[i]!);
    return slot;
  }

  finishedAt(slot: number): number {
    return this.finishes.get(slot);
  }

  /** How many players the game has. */
  playerCount(slot: number): number {
    return this.counts.get(slot);
  }

  /** The id of the game's `i`th player. */
  player(slot: number, i: number): string {
    return this.ids.get(this.starts.get(slot) + i);
  }

  /** The `k`th of player `i`'s four numbers (0 mu before, 1 sigma before, 2 mu after, 3 sigma after). */
  number(slot: number, i: number, k: number): number {
    return this.numbers.get(4 * (this.starts.get(slot) + i) + k);
  }

  /** Writes player `i`'s four numbers. */
  write(
    slot: number,
    i: number,
    muBefore: number,
    sigmaBefore: number,
    muAfter: number,
    sigmaAfter: number,
  ): void {
    const at = 4 * (this.starts.get(slot) + i);
    this.numbers.set(at, muBefore);
    this.numbers.set(at + 1, sigmaBefore);
    this.numbers.set(at + 2, muAfter);
    this.numbers.set(at + 3, sigmaAfter);
  }

  /** A saved game as plain data (copies). */
  game(gameId: string): SkillGame | undefined {
    const slot = this.index.find(gameId);
    if (slot < 0) return undefined;
    const count = this.counts.get(slot);
    const players: string[] = [];
    const skills: number[] = [];
    for (let i = 0; i < count; i++) {
      players.push(this.player(slot, i));
      for (let k = 0; k < 4; k++) skills.push(this.number(slot, i, k));
    }
    return { finishedAt: this.finishes.get(slot), players, skills };
  }
}
