import type { LadderConfig } from './ladder-config.js';
import { countIn, NO_COUNTS, ownCounts, type PeriodCounts } from './period-counts.js';

/**
 * Everything a ladder keeps about one player. One shape for every rule set: fields a rule set
 * does not use stay at their defaults. Treated as immutable: changes build a new object.
 */
export interface PlayerState {
  readonly id: string;
  /** Rating, or the live score for point ladders. */
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  /** Games that could move this player's rating (RULES.md "rated game"). */
  readonly ratedGames: number;
  /** Earliest finishedAt (epoch ms) of a rated game; drives "at least one rated game before the close". */
  readonly firstRatedAt: number | null;
  /** Rated games per open week / month key (only for rule sets with those closes). */
  readonly weekGames: PeriodCounts;
  readonly monthGames: PeriodCounts;
  /** Disconnect policy: live counter, clean games since the last disconnect, penalties so far. */
  readonly disconnects: number;
  readonly cleanStreak: number;
  readonly disconnectPenalties: number;
  /** xinbo-points: official level (25 weakest .. 1), stage, valid captures and per-day tallies. */
  readonly level: number;
  readonly territory: boolean;
  readonly captures: number;
  readonly dayCaptures: PeriodCounts;
}

/**
 * A player as a fold keeps it: the same fields, changed in place by the fold that owns it (a
 * game changes two records instead of building two new ones). Its period-count arrays are its
 * own too; nothing outside the fold holds a record across events.
 */
export type PlayerRecord = { -readonly [K in keyof PlayerState]: PlayerState[K] };

export const XINBO_START_LEVEL = 25;

export function newPlayer(id: string, ladder: LadderConfig): PlayerRecord {
  return {
    id,
    rating: ladder.startRating,
    games: 0,
    wins: 0,
    losses: 0,
    draws: 0,
    ratedGames: 0,
    firstRatedAt: null,
    weekGames: NO_COUNTS,
    monthGames: NO_COUNTS,
    disconnects: 0,
    cleanStreak: 0,
    disconnectPenalties: 0,
    level: XINBO_START_LEVEL,
    territory: false,
    captures: 0,
    dayCaptures: NO_COUNTS,
  };
}

/**
 * A player with some fields changed. Every PlayerState is built with its fields in one order
 * (here or in `newPlayer`), so the engine sees one object shape: the fold runs hot on these.
 */
export function updatePlayer(
  p: PlayerState,
  change: Partial<Omit<PlayerState, 'id'>>,
): PlayerState {
  const c = { ...p, ...change };
  return {
    id: p.id,
    rating: c.rating,
    games: c.games,
    wins: c.wins,
    losses: c.losses,
    draws: c.draws,
    ratedGames: c.ratedGames,
    firstRatedAt: c.firstRatedAt,
    weekGames: c.weekGames,
    monthGames: c.monthGames,
    disconnects: c.disconnects,
    cleanStreak: c.cleanStreak,
    disconnectPenalties: c.disconnectPenalties,
    level: c.level,
    territory: c.territory,
    captures: c.captures,
    dayCaptures: c.dayCaptures,
  };
}

/** A record of the player that owns its arrays: what a fold keeps of a player handed to it. */
export function copyPlayer(p: PlayerState): PlayerRecord {
  const copy = updatePlayer(p, {}) as PlayerRecord;
  copy.weekGames = ownCounts(p.weekGames);
  copy.monthGames = ownCounts(p.monthGames);
  copy.dayCaptures = ownCounts(p.dayCaptures);
  return copy;
}

/**
 * What a game's computation reads of a player, saved with the game so that a later
 * correction can recompute it from the state before it (RULES.md, corrections).
 */
export interface PlayerSnapshot {
  readonly rating: number;
  readonly level: number;
  readonly territory: boolean;
  /** Valid captures already credited on the game's local day. */
  readonly dayTally: number;
}

export function snapshotOf(player: PlayerState, dayKey: string | null): PlayerSnapshot {
  return {
    rating: player.rating,
    level: player.level,
    territory: player.territory,
    dayTally: dayKey === null ? 0 : countIn(player.dayCaptures, dayKey),
  };
}

/** Snapshots packed as numbers, four per player (rating, level, territory 0/1, day tally), as a game record keeps them. */
export type PackedSnapshots = readonly number[];

export function unpackSnapshots(packed: PackedSnapshots): PlayerSnapshot[] {
  const snapshots: PlayerSnapshot[] = [];
  for (let i = 0; i < packed.length; i += 4) {
    snapshots.push({
      rating: packed[i]!,
      level: packed[i + 1]!,
      territory: packed[i + 2] === 1,
      dayTally: packed[i + 3]!,
    });
  }
  return snapshots;
}
