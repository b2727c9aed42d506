import type { GameCorrected, GameFinished } from '@ranking/contracts';
import type { Duel } from './duel.js';
import type { DuelColumns } from './duel-columns.js';
import { duelSidesOf } from './duels-from-events.js';
import { NameTable } from './name-table.js';

/** A void game's place: kept (a later result of the same game is still a repeat), not judged. */
const VOID = -1;

/**
 * One ladder's two-player games as DuelCollector makes them, kept in memory between refreshes
 * with a bound: at most `cap` games are recorded, and past it the oldest recorded game (void or
 * not) is forgotten, so the duels are those of the latest `cap` games of the log. A correction
 * of a forgotten game changes nothing, and a result repeated for a forgotten game counts as a
 * new game (its id is no longer known). Within the cap the duels are DuelCollector's exactly.
 *
 * Held as columns (about 200 bytes a game rather than a kilobyte of objects), so handing them
 * to another thread copies numbers, not objects. The arrays are compacted once a quarter of
 * the cap has been forgotten: they never hold more than 1.25 × cap games, and the player and
 * address tables name only those games' players and addresses.
 */
export class LadderDuels {
  private gameIds: string[] = [];
  private finishedAt: string[] = [];
  private at: number[] = [];
  private first: number[] = [];
  private second: number[] = [];
  /** The first side's score in half points, or VOID. */
  private halves: number[] = [];
  private firstIp: number[] = [];
  private secondIp: number[] = [];
  /** Games before this place are forgotten (until compaction drops them). */
  private head = 0;
  private judged = 0;
  private forgottenGames = 0;
  private byGame = new Map<string, number>();
  private players = new NameTable();
  private ips = new NameTable();

  constructor(
    readonly ladder: string,
    readonly cap: number,
  ) {
    if (!Number.isInteger(cap) || cap < 1)
      throw new RangeError(`cap must be a positive integer, not ${cap}`);
  }

  /** Duels held now (void games are not). */
  get games(): number {
    return this.judged;
  }

  /** Duels forgotten so far to stay within the cap (void games are not counted). */
  get forgotten(): number {
    return this.forgottenGames;
  }

  /** Games recorded now, void ones included: never more than the cap. */
  get recorded(): number {
    return this.gameIds.length - this.head;
  }

  /** Places the columns take now, forgotten ones not yet compacted included (at most 1.25 × cap). */
  get places(): number {
    return this.gameIds.length;
  }

  /** Distinct players the table names now. */
  get playersNamed(): number {
    return this.players.list.length;
  }

  /** finishedAt of the oldest game held, or null when none is. */
  get oldest(): string | null {
    for (let i = this.head; i < this.halves.length; i++)
      if (this.halves[i] !== VOID) return this.finishedAt[i]!;
    return null;
  }

  add(event: GameFinished | GameCorrected): void {
    if (event.ladder !== this.ladder) return;
    if (event.type === 'game.finished') this.record(event);
    else this.correct(event);
  }

  /** The duels held, in log order, as columns for another thread. */
  columns(): DuelColumns {
    const n = this.judged;
    const columns = {
      ladder: this.ladder,
      finishedAt: new Array<string>(n),
      at: new Float64Array(n),
      first: new Uint32Array(n),
      second: new Uint32Array(n),
      firstHalves: new Uint8Array(n),
      firstIp: new Int32Array(n),
      secondIp: new Int32Array(n),
      players: this.players.list.slice(),
      ips: this.ips.list.slice(),
    };
    let k = 0;
    for (let i = this.head; i < this.halves.length; i++) {
      const halves = this.halves[i]!;
      if (halves === VOID) continue;
      columns.finishedAt[k] = this.finishedAt[i]!;
      columns.at[k] = this.at[i]!;
      columns.first[k] = this.first[i]!;
      columns.second[k] = this.second[i]!;
      columns.firstHalves[k] = halves;
      columns.firstIp[k] = this.firstIp[i]!;
      columns.secondIp[k] = this.secondIp[i]!;
      k++;
    }
    return columns;
  }

  /** The games whose duels are held, in log order. */
  heldGameIds(): string[] {
    return this.gameIds.filter((_, i) => i >= this.head && this.halves[i] !== VOID);
  }

  /** The duels held between the two players, in time order (log order among equal times). */
  pair(a: string, b: string): Duel[] {
    const out: Duel[] = [];
    const ia = this.players.find(a);
    const ib = this.players.find(b);
    if (ia < 0 || ib < 0) return out;
    for (let i = this.head; i < this.halves.length; i++) {
      const halves = this.halves[i]!;
      if (halves === VOID) continue;
      const x = this.first[i]!;
      const y = this.second[i]!;
      if ((x === ia && y === ib) || (x === ib && y === ia)) out.push(this.duel(i, halves));
    }
    return out.sort((x, y) => x.at - y.at);
  }

  private duel(i: number, halves: number): Duel {
    const ip = (index: number) => (index < 0 ? null : this.ips.list[index]!);
    return {
      ladder: this.ladder,
      gameId: this.gameIds[i]!,
      at: this.at[i]!,
      finishedAt: this.finishedAt[i]!,
      sides: [
        { player: this.players.list[this.first[i]!]!, score: halves / 2, ip: ip(this.firstIp[i]!) },
        {
          player: this.players.list[this.second[i]!]!,
          score: (2 - halves) / 2,
          ip: ip(this.secondIp[i]!),
        },
      ],
    };
  }

  private record(event: GameFinished): void {
    if (this.byGame.has(event.gameId)) return;
    const sides = duelSidesOf(event.players);
    const at = Date.parse(event.finishedAt);
    if (sides === null || Number.isNaN(at)) return;
    const [a, b] = sides;
    this.byGame.set(event.gameId, this.gameIds.length);
    this.gameIds.push(event.gameId);
    this.finishedAt.push(event.finishedAt);
    this.at.push(at);
    this.first.push(this.players.of(a.player));
    this.second.push(this.players.of(b.player));
    this.halves.push(a.score * 2);
    this.firstIp.push(a.ip === null ? -1 : this.ips.of(a.ip));
    this.secondIp.push(b.ip === null ? -1 : this.ips.of(b.ip));
    this.judged++;
    while (this.recorded > this.cap) this.forgetOldest();
    if (this.head >= Math.max(1, this.cap >> 2)) this.compact();
  }

  private correct(event: GameCorrected): void {
    const i = this.byGame.get(event.gameId);
    if (i === undefined || this.halves[i] === VOID) return;
    const sides = event.void || !event.players ? null : duelSidesOf(event.players);
    if (sides === null) {
      this.halves[i] = VOID;
      this.judged--;
      return;
    }
    const [a, b] = sides;
    this.first[i] = this.players.of(a.player);
    this.second[i] = this.players.of(b.player);
    this.halves[i] = a.score * 2;
    this.firstIp[i] = a.ip === null ? -1 : this.ips.of(a.ip);
    this.secondIp[i] = b.ip === null ? -1 : this.ips.of(b.ip);
  }

  private forgetOldest(): void {
    const i = this.head++;
    this.byGame.delete(this.gameIds[i]!);
    if (this.halves[i] !== VOID) {
      this.judged--;
      this.forgottenGames++;
    }
  }

  /** Drops the forgotten places, and the names only they used. */
  private compact(): void {
    const keep = <T>(column: T[]): T[] => column.slice(this.head);
    const players = new NameTable();
    const ips = new NameTable();
    const rename = (table: NameTable, names: NameTable) => (i: number) =>
      i < 0 ? i : names.of(table.list[i]!);
    const player = rename(this.players, players);
    const ip = rename(this.ips, ips);
    this.gameIds = keep(this.gameIds);
    this.finishedAt = keep(this.finishedAt);
    this.at = keep(this.at);
    this.halves = keep(this.halves);
    this.first = keep(this.first).map(player);
    this.second = keep(this.second).map(player);
    this.firstIp = keep(this.firstIp).map(ip);
    this.secondIp = keep(this.secondIp).map(ip);
    this.players = players;
    this.ips = ips;
    this.byGame = new Map(this.gameIds.map((id, i) => [id, i]));
    this.head = 0;
  }
}
