import type { DisconnectCounter } from './disconnect-policy.js';
import type { EffectCounts } from './effect.js';
import type { PeriodCalendar } from './period-clock.js';
import { addInPlace } from './period-counts.js';
import type { PlayerRecord } from './player-state.js';
import type { RuleSet } from './rule-set.js';

/** Where a game falls in time, for the counters that are kept per period. */
export interface GameTime {
  readonly finishedAt: number;
  readonly calendar: PeriodCalendar;
}

/**
 * Adds a game's effect to a player's record (sign +1), or takes it back (sign −1) when a
 * correction replaces it; with a counter, the player's disconnect counter becomes that counter.
 * The record is the fold's own and changes in place: what to add was decided, purely, before.
 */
export function applyEffect(
  player: PlayerRecord,
  effect: EffectCounts,
  sign: 1 | -1,
  rules: RuleSet,
  time: GameTime,
  counter: DisconnectCounter | null = null,
): void {
  const rated = sign * effect.rated;
  const captures = sign * effect.captures;
  player.ratedGames += rated;
  if (rated > 0 && (player.firstRatedAt === null || time.finishedAt < player.firstRatedAt))
    player.firstRatedAt = time.finishedAt;
  // A correction that takes back a player's last rated game leaves no rated game to count
  // for the quotas ("at least one rated game before the close").
  if (rated < 0 && player.ratedGames === 0) player.firstRatedAt = null;
  player.rating += sign * effect.rating;
  player.games += sign * effect.games;
  player.wins += sign * effect.wins;
  player.losses += sign * effect.losses;
  player.draws += sign * effect.draws;
  if (rated !== 0) {
    if (rules.closes.includes('weekly'))
      player.weekGames = addInPlace(
        player.weekGames,
        time.calendar.weekKey(time.finishedAt),
        rated,
      );
    if (rules.closes.includes('monthly'))
      player.monthGames = addInPlace(
        player.monthGames,
        time.calendar.monthKey(time.finishedAt),
        rated,
      );
  }
  if (counter) {
    player.disconnects = counter.count;
    player.cleanStreak = counter.streak;
    player.disconnectPenalties = counter.penalties;
  }
  if (rules.tracksDailyCaptures && captures !== 0) {
    player.captures += captures;
    // A territory player's tallies can cap nothing any more (xinbo-points.ts, closePeriod).
    if (!player.territory)
      player.dayCaptures = addInPlace(
        player.dayCaptures,
        time.calendar.dayKey(time.finishedAt),
        captures,
      );
  }
}
