import type { DisconnectCounter } from './disconnect-policy.js';
import type { EffectCounts } from './effect.js';
import type { PeriodCalendar } from './period-clock.js';
import { addTo } from './period-counts.js';
import type { PlayerState } from './player-state.js';
import type { RuleSet } from './rule-set.js';

/** Where a game falls in time, for the counters that are kept per period. */
export interface GameTime {
  readonly finishedAt: number;
  readonly calendar: PeriodCalendar;
}

/**
 * Adds a game's effect to a player (sign +1), or takes it back (sign −1) when a correction
 * replaces it; with a counter, the player's disconnect counter becomes that counter.
 */
export function applyEffect(
  player: PlayerState,
  effect: EffectCounts,
  sign: 1 | -1,
  rules: RuleSet,
  time: GameTime,
  counter: DisconnectCounter | null = null,
): PlayerState {
  const rated = sign * effect.rated;
  const captures = sign * effect.captures;
  const ratedGames = player.ratedGames + rated;
  let firstRatedAt = player.firstRatedAt;
  if (rated > 0 && (firstRatedAt === null || time.finishedAt < firstRatedAt))
    firstRatedAt = time.finishedAt;
  // A correction that takes back a player's last rated game leaves no rated game to count
  // for the quotas ("at least one rated game before the close").
  if (rated < 0 && ratedGames === 0) firstRatedAt = null;
  const tallies = rules.tracksDailyCaptures && captures !== 0;
  // One literal with every field in PlayerState's order keeps a single object shape.
  return {
    id: player.id,
    rating: player.rating + sign * effect.rating,
    games: player.games + sign * effect.games,
    wins: player.wins + sign * effect.wins,
    losses: player.losses + sign * effect.losses,
    draws: player.draws + sign * effect.draws,
    ratedGames,
    firstRatedAt,
    weekGames: rules.closes.includes('weekly')
      ? addTo(player.weekGames, time.calendar.weekKey(time.finishedAt), rated)
      : player.weekGames,
    monthGames: rules.closes.includes('monthly')
      ? addTo(player.monthGames, time.calendar.monthKey(time.finishedAt), rated)
      : player.monthGames,
    disconnects: counter ? counter.count : player.disconnects,
    cleanStreak: counter ? counter.streak : player.cleanStreak,
    disconnectPenalties: counter ? counter.penalties : player.disconnectPenalties,
    level: player.level,
    territory: player.territory,
    captures: tallies ? player.captures + captures : player.captures,
    dayCaptures: tallies
      ? addTo(player.dayCaptures, time.calendar.dayKey(time.finishedAt), captures)
      : player.dayCaptures,
  };
}
