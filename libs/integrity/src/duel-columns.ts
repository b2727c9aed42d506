import type { JudgedDuel, DuelSide } from './duel.js';
import { NameTable } from './name-table.js';

/**
 * One ladder's duels as the analysis reads them (JudgedDuel: no ids), as columns to hand to
 * another thread: numbers in typed arrays (moved, not copied), each player and address named
 * once, and finishedAt the only strings. Posting 300,000 duels as objects cost the posting
 * thread 1-1.5 s of copying; as columns, some 40 ms (ADR 41).
 */
export interface DuelColumns {
  readonly ladder: string;
  readonly finishedAt: readonly string[];
  readonly at: Float64Array;
  /** Each game's first and second side, as indexes into `players`. */
  readonly first: Uint32Array;
  readonly second: Uint32Array;
  /** The first side's score in half points (0 a loss, 1 a draw, 2 a win); the second has the rest. */
  readonly firstHalves: Uint8Array;
  /** Each side's address as an index into `ips`, −1 when the event gave none. */
  readonly firstIp: Int32Array;
  readonly secondIp: Int32Array;
  readonly players: readonly string[];
  readonly ips: readonly string[];
}

/** The duels, in their order, as columns. */
export function duelColumns(ladder: string, duels: readonly JudgedDuel[]): DuelColumns {
  const n = duels.length;
  const players = new NameTable();
  const ips = new NameTable();
  const columns = {
    ladder,
    finishedAt: new Array<string>(n),
    at: new Float64Array(n),
    first: new Uint32Array(n),
    second: new Uint32Array(n),
    firstHalves: new Uint8Array(n),
    firstIp: new Int32Array(n),
    secondIp: new Int32Array(n),
    players: players.list,
    ips: ips.list,
  };
  duels.forEach((duel, i) => {
    const [a, b] = duel.sides;
    columns.finishedAt[i] = duel.finishedAt;
    columns.at[i] = duel.at;
    columns.first[i] = players.of(a.player);
    columns.second[i] = players.of(b.player);
    columns.firstHalves[i] = a.score * 2;
    columns.firstIp[i] = a.ip === null ? -1 : ips.of(a.ip);
    columns.secondIp[i] = b.ip === null ? -1 : ips.of(b.ip);
  });
  return columns;
}

/** The duels the columns hold, in their order (what `duelColumns` was given). */
export function duelsOf(columns: DuelColumns): JudgedDuel[] {
  const { players, ips } = columns;
  const side = (player: number, halves: number, ip: number): DuelSide => ({
    player: players[player]!,
    score: halves / 2,
    ip: ip < 0 ? null : ips[ip]!,
  });
  const duels = new Array<JudgedDuel>(columns.at.length);
  for (let i = 0; i < duels.length; i++) {
    const halves = columns.firstHalves[i]!;
    duels[i] = {
      at: columns.at[i]!,
      finishedAt: columns.finishedAt[i]!,
      sides: [
        side(columns.first[i]!, halves, columns.firstIp[i]!),
        side(columns.second[i]!, 2 - halves, columns.secondIp[i]!),
      ],
    };
  }
  return duels;
}

/** The columns' buffers, moved to the other thread rather than copied. */
export const duelColumnBuffers = (columns: DuelColumns): ArrayBuffer[] =>
  [
    columns.at,
    columns.first,
    columns.second,
    columns.firstHalves,
    columns.firstIp,
    columns.secondIp,
  ].map((array) => array.buffer as ArrayBuffer);
