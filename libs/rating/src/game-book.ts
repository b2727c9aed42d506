import type { PlayerReport, VoidReason } from '@ranking/contracts';
import type { EffectCounts } from './effect.js';
import { packEffectFlags, unpackEffectFlags } from './effect.js';
import type { GameRecord } from './game-record.js';
import { encodeRecord } from './game-record-codec.js';
import type { PlayerSnapshot } from './player-state.js';
import { type GameSetting, type RuleSet, settingOf } from './rule-set.js';
import { float64Column, int32Column, ValueColumn } from './columns.js';
import { TextArena } from './text-arena.js';

const DEFAULT_SETTING = settingOf(undefined);
/** The covered flag's place in a record's codes, above the void reason's (fewer than 256). */
const COVERED = 256;

type ReportValue = string | number | boolean | null;

/**
 * The game records a ladder keeps so that a correction can recompute a game (RULES.md: any
 * earlier game may be corrected, so every record is kept for as long as the ladder lives).
 *
 * A ladder of a million games keeps a million records, and replays and rebuilds re-fold whole
 * ladders, so records live in columns (columns.ts) rather than as objects or text: numbers in
 * typed arrays, game ids as UTF-16 code units in one arena behind an open-addressing index,
 * player ids (the fold's own strings) and report values by reference. Adding a game allocates nothing and leaves the garbage collector
 * nothing to trace; a correction reads its record back as a `GameRecord`, and `encoded` writes
 * exactly the text `encodeRecord` writes for it (the rating service's stored form).
 */
export class GameBook {
  /** Records, one per accepted game in arrival order (a repeated id supersedes the older one). */
  private count = 0;
  /** Distinct game ids in the index. */
  private distinct = 0;
  /** Open addressing: record number + 1, 0 for an empty place. */
  private index = new Int32Array(1024);
  /** Game ids, in record order: record n's id ends in the arena where n + 1's starts. */
  private readonly text = new TextArena();
  // Per record.
  private readonly hashes = int32Column();
  /** Where record n's id ends in the arena: entry n + 1 (entry 0 is 0). */
  private readonly idEnd = float64Column();
  private readonly finishedAt = float64Column();
  private readonly moves = float64Column();
  /** Covered (0/1), the void reason's code and the setting's, as (covered * 256 + void) * 65536 + setting. */
  private readonly codes = int32Column();
  /** Where record n's player slots end: entry n + 1 (entry 0 is 0). */
  private readonly slotEnd = int32Column();
  // Per player slot.
  private readonly playerId = new ValueColumn<string>();
  private readonly beforeRating = float64Column();
  /** level, territory (0/1) and the day's capture tally, three per slot. */
  private readonly beforeAux = int32Column();
  private readonly effectRating = float64Column();
  /** captures and the count flags, two per slot. */
  private readonly effectAux = int32Column();
  /** The rule set's report fields of each slot, as the stored text keeps them (absent is null). */
  private readonly reports = new ValueColumn<ReportValue>();
  private readonly fields: readonly (keyof PlayerReport)[];
  private readonly settings: GameSetting[] = [DEFAULT_SETTING];
  private readonly settingByKey = new Map<string, number>();
  private readonly voidReasons: (VoidReason | null)[] = [null];
  /** Records from this one on are changes, and so are the rewritten ones. */
  private changesFrom = 0;
  private readonly rewritten = new Set<string>();

  constructor(private readonly rules: RuleSet) {
    this.fields = rules.reportFields;
    this.idEnd.set(0, 0);
    this.slotEnd.set(0, 0);
  }

  /** How many games have a record. */
  get size(): number {
    return this.distinct;
  }

  /** Adds the record of a decided game (a repeated id replaces the older record). */
  add(
    gameId: string,
    finishedAt: number,
    moves: number,
    setting: GameSetting,
    players: readonly PlayerReport[],
    playerIds: readonly string[] | null,
    before: readonly PlayerSnapshot[],
    effects: readonly EffectCounts[] | null,
    voidOnArrival: VoidReason | null,
    covered: boolean,
  ): void {
    const n = this.count;
    this.finishedAt.set(n, finishedAt);
    this.moves.set(n, moves);
    const voidCode = voidOnArrival === null ? 0 : this.voidCodeOf(voidOnArrival);
    const settingCode = setting === DEFAULT_SETTING ? 0 : this.settingCodeOf(setting);
    this.codes.set(n, ((covered ? COVERED : 0) + voidCode) * 65536 + settingCode);
    const fields = this.fields.length;
    let slot = this.slotEnd.get(n);
    for (let i = 0; i < players.length; i++, slot++) {
      const report = players[i]!;
      // The fold's own string for the player when it has one: the event's copy would be kept.
      this.playerId.set(slot, playerIds === null ? report.id : playerIds[i]!);
      for (let f = 0; f < fields; f++)
        this.reports.set(slot * fields + f, reportValue(report[this.fields[f]!]));
      const b = before[i]!;
      // +0 turns -0 into 0, as the JSON text that records were once kept as did.
      this.beforeRating.set(slot, b.rating + 0);
      this.beforeAux.set(slot * 3, b.level);
      this.beforeAux.set(slot * 3 + 1, b.territory ? 1 : 0);
      this.beforeAux.set(slot * 3 + 2, b.dayTally);
      this.writeEffect(slot, effects === null ? null : effects[i]!);
    }
    this.slotEnd.set(n + 1, slot);
    this.idEnd.set(n + 1, this.text.put(gameId));
    const hash = this.text.hashOf(gameId);
    this.hashes.set(n, hash);
    this.count = n + 1;
    const at = this.probe(gameId, hash);
    if (this.index[at] === 0) this.distinct++;
    this.index[at] = n + 1;
    if (this.distinct * 2 > this.index.length) this.rehash();
  }

  /** Adds a record given whole (a restored snapshot). */
  addRecord(record: GameRecord): void {
    const before: PlayerSnapshot[] = [];
    const effects: EffectCounts[] = [];
    for (let i = 0; i < record.players.length; i++) {
      before.push({
        rating: record.before[i * 4]!,
        level: record.before[i * 4 + 1]!,
        territory: record.before[i * 4 + 2] === 1,
        dayTally: record.before[i * 4 + 3]!,
      });
      effects.push({
        rating: record.effects[i * 3]!,
        captures: record.effects[i * 3 + 1]!,
        ...unpackEffectFlags(record.effects[i * 3 + 2]!),
      });
    }
    this.add(
      record.gameId,
      record.finishedAt,
      record.moves,
      record.setting,
      record.players,
      null,
      before,
      effects,
      record.voidOnArrival,
      record.covered,
    );
  }

  has(gameId: string): boolean {
    return this.find(gameId) >= 0;
  }

  /** The record of a game, as a correction reads it; undefined for an unknown game. */
  record(gameId: string): GameRecord | undefined {
    const n = this.find(gameId);
    return n < 0 ? undefined : this.recordAt(n);
  }

  /** The record's text as the rating service stores it (`encodeRecord`'s, byte for byte). */
  encoded(gameId: string): string | undefined {
    const record = this.record(gameId);
    return record === undefined ? undefined : encodeRecord(record, this.rules);
  }

  /** A correction's new adjudication: the players' reports and the game's effects. */
  rewrite(gameId: string, players: readonly PlayerReport[], effects: readonly EffectCounts[]) {
    const n = this.find(gameId);
    if (n < 0) throw new Error(`no game record ${gameId}`);
    const fields = this.fields.length;
    for (let i = 0, slot = this.slotEnd.get(n); i < players.length; i++, slot++) {
      for (let f = 0; f < fields; f++)
        this.reports.set(slot * fields + f, reportValue(players[i]![this.fields[f]!]));
      this.writeEffect(slot, effects[i]!);
    }
    this.rewritten.add(gameId);
  }

  /** From now on, `changes` lists only the records added or rewritten after this call. */
  markUnchanged(): void {
    this.changesFrom = this.count;
    this.rewritten.clear();
  }

  /** The ids of the records added or rewritten since `markUnchanged` (all, without it). */
  changes(): string[] {
    const ids = new Set(this.rewritten);
    for (let n = this.changesFrom; n < this.count; n++) {
      const id = this.idAt(n);
      // A record superseded by a later one with the same id is not the game's record.
      if (this.find(id) === n) ids.add(id);
    }
    return [...ids];
  }

  /** Every game's current record, in the order those records were written. */
  *records(): Generator<GameRecord> {
    for (let n = 0; n < this.count; n++) {
      if (this.find(this.idAt(n)) === n) yield this.recordAt(n);
    }
  }

  /** Every game id with its record's text, in the order the records were written. */
  *encodedRecords(): Generator<[string, string]> {
    for (const record of this.records()) yield [record.gameId, encodeRecord(record, this.rules)];
  }

  private idAt(n: number): string {
    return this.text.get(this.idEnd.get(n), this.idEnd.get(n + 1));
  }

  private recordAt(n: number): GameRecord {
    const fields = this.fields;
    const players: PlayerReport[] = [];
    const before: number[] = [];
    const effects: number[] = [];
    for (let slot = this.slotEnd.get(n); slot < this.slotEnd.get(n + 1); slot++) {
      const report: Record<string, unknown> = { id: this.playerId.get(slot) };
      for (let f = 0; f < fields.length; f++) {
        const value = this.reports.get(slot * fields.length + f);
        // As decodeRecord reads the stored text: finishOrder's null means "still holding
        // cards"; other fields are simply absent.
        if (value !== null || fields[f] === 'finishOrder') report[fields[f]!] = value;
      }
      players.push(report as unknown as PlayerReport);
      before.push(
        this.beforeRating.get(slot),
        this.beforeAux.get(slot * 3),
        this.beforeAux.get(slot * 3 + 1),
        this.beforeAux.get(slot * 3 + 2),
      );
      effects.push(
        this.effectRating.get(slot),
        this.effectAux.get(slot * 2),
        this.effectAux.get(slot * 2 + 1),
      );
    }
    const codes = this.codes.get(n);
    return {
      gameId: this.idAt(n),
      finishedAt: this.finishedAt.get(n),
      moves: this.moves.get(n),
      setting: this.settings[codes % 65536]!,
      players,
      before,
      effects,
      voidOnArrival: this.voidReasons[Math.floor(codes / 65536) % COVERED]!,
      covered: codes >= COVERED * 65536,
    };
  }

  private writeEffect(slot: number, effect: EffectCounts | null): void {
    this.effectRating.set(slot, effect === null ? 0 : effect.rating + 0);
    this.effectAux.set(slot * 2, effect === null ? 0 : effect.captures);
    this.effectAux.set(slot * 2 + 1, effect === null ? 0 : packEffectFlags(effect));
  }

  /** The index place that holds `id`, or the empty place where it would go. */
  private probe(id: string, hash: number): number {
    const mask = this.index.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.index[at]!;
      if (entry === 0) return at;
      if (
        this.hashes.get(entry - 1) === hash &&
        this.text.equals(this.idEnd.get(entry - 1), this.idEnd.get(entry), id)
      )
        return at;
    }
  }

  /** The number of the game's current record, -1 when the game is unknown. */
  private find(id: string): number {
    return this.index[this.probe(id, this.text.hashOf(id))]! - 1;
  }

  private rehash(): void {
    const old = this.index;
    this.index = new Int32Array(old.length * 2);
    const mask = this.index.length - 1;
    for (const entry of old) {
      if (entry === 0) continue;
      let at = this.hashes.get(entry - 1) & mask;
      while (this.index[at] !== 0) at = (at + 1) & mask;
      this.index[at] = entry;
    }
  }

  private voidCodeOf(reason: VoidReason): number {
    const code = this.voidReasons.indexOf(reason);
    if (code >= 0) return code;
    if (this.voidReasons.length === COVERED) throw new Error('more than 255 void reasons');
    return this.voidReasons.push(reason) - 1;
  }

  /** One code per distinct setting: games with a context keep a number, not an object. */
  private settingCodeOf(setting: GameSetting): number {
    const key = `${setting.kind}|${setting.handicap}|${setting.teacher}|${setting.tournament}|${setting.captureTarget}`;
    let code = this.settingByKey.get(key);
    if (code === undefined) {
      code = this.settings.push(setting) - 1;
      if (code > 0xffff) throw new Error('more than 65,535 distinct game settings in one ladder');
      this.settingByKey.set(key, code);
    }
    return code;
  }
}

/** A report value as the stored text keeps it: absent is null, -0 is 0 (as JSON reads it). */
function reportValue(value: PlayerReport[keyof PlayerReport]): ReportValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return value + 0;
  // The three results as the module's own constants, not each event's copy of the text.
  if (value === 'win') return 'win';
  if (value === 'loss') return 'loss';
  if (value === 'draw') return 'draw';
  return value;
}
