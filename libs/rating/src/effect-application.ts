import type { PlayerEffect } from './effect.js';
import type { PeriodCalendar } from './period-clock.js';
import type { PlayerState } from './player-state.js';
import type { RuleSet } from './rule-set.js';

const bump = (counts: Readonly<Record<string, number>>, key: string, by: number) =>
  by === 0 ? counts : { ...counts, [key]: (counts[key] ?? 0) + by };

/** Where a game falls in time, for the counters that are kept per period. */
export interface GameTime {
  readonly finishedAt: number;
  readonly calendar: PeriodCalendar;
}

/**
 * Adds a game's effect to a player (sign +1), or takes it back (sign −1) when a correction
 * replaces it. The earliest rated game is only ever moved earlier.
 */
export function applyEffect(
  player: PlayerState,
  effect: PlayerEffect,
  sign: 1 | -1,
  rules: RuleSet,
  time: GameTime,
): PlayerState {
  const rated = sign * effect.rated;
  const captures = sign * effect.captures;
  const next: { -readonly [K in keyof PlayerState]: PlayerState[K] } = {
    ...player,
    rating: player.rating + sign * effect.rating,
    games: player.games + sign * effect.games,
    wins: player.wins + sign * effect.wins,
    losses: player.losses + sign * effect.losses,
    draws: player.draws + sign * effect.draws,
    ratedGames: player.ratedGames + rated,
  };
  if (rated > 0 && (player.firstRatedAt === null || time.finishedAt < player.firstRatedAt)) {
    next.firstRatedAt = time.finishedAt;
  }
  if (rules.closes.includes('weekly')) {
    next.weekGames = bump(player.weekGames, time.calendar.weekKey(time.finishedAt), rated);
  }
  if (rules.closes.includes('monthly')) {
    next.monthGames = bump(player.monthGames, time.calendar.monthKey(time.finishedAt), rated);
  }
  if (rules.tracksDailyCaptures && captures !== 0) {
    next.captures = player.captures + captures;
    next.dayCaptures = bump(player.dayCaptures, time.calendar.dayKey(time.finishedAt), captures);
  }
  return next;
}
