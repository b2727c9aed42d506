import type { DisconnectCounter } from './disconnect-policy.js';
import type { EffectCounts } from './effect.js';
import type { PeriodCalendar } from './period-clock.js';
import {
  CAPTURES,
  CLEAN_STREAK,
  DISCONNECT_PENALTIES,
  DISCONNECTS,
  DRAWS,
  FIRST_RATED_AT,
  GAMES,
  LOSSES,
  NUM,
  type PlayerTable,
  RATED_GAMES,
  RATING,
  SMALL,
  TERRITORY,
  WINS,
} from './player-table.js';
import type { RuleSet } from './rule-set.js';

/** Where a game falls in time, for the counters that are kept per period. */
export interface GameTime {
  readonly finishedAt: number;
  readonly calendar: PeriodCalendar;
}

/**
 * Adds a game's effect to player `i` of the table (sign +1), or takes it back (sign −1) when a
 * correction replaces it; with a counter, the player's disconnect counter becomes that counter.
 * The table is the fold's own and changes in place: what to add was decided, purely, before.
 */
export function applyEffect(
  table: PlayerTable,
  i: number,
  effect: EffectCounts,
  sign: 1 | -1,
  rules: RuleSet,
  time: GameTime,
  counter: DisconnectCounter | null = null,
): void {
  const rated = sign * effect.rated;
  const captures = sign * effect.captures;
  const num = table.num;
  const n = i * NUM;
  const ratedGames = (num[n + RATED_GAMES] = num[n + RATED_GAMES]! + rated);
  // NaN (no rated game yet) compares false: the first rated game sets it.
  if (rated > 0 && !(time.finishedAt >= num[n + FIRST_RATED_AT]!))
    num[n + FIRST_RATED_AT] = time.finishedAt;
  // A correction that takes back a player's last rated game leaves no rated game to count
  // for the quotas ("at least one rated game before the close").
  if (rated < 0 && ratedGames === 0) num[n + FIRST_RATED_AT] = NaN;
  num[n + RATING] = num[n + RATING]! + sign * effect.rating;
  num[n + GAMES] = num[n + GAMES]! + sign * effect.games;
  num[n + WINS] = num[n + WINS]! + sign * effect.wins;
  num[n + LOSSES] = num[n + LOSSES]! + sign * effect.losses;
  num[n + DRAWS] = num[n + DRAWS]! + sign * effect.draws;
  if (rated !== 0) {
    if (rules.closes.includes('weekly'))
      table.weekGames.add(i, time.calendar.weekKey(time.finishedAt), rated);
    if (rules.closes.includes('monthly'))
      table.monthGames.add(i, time.calendar.monthKey(time.finishedAt), rated);
  }
  if (counter) {
    const s = i * SMALL;
    table.small[s + DISCONNECTS] = counter.count;
    table.small[s + CLEAN_STREAK] = counter.streak;
    table.small[s + DISCONNECT_PENALTIES] = counter.penalties;
  }
  if (rules.tracksDailyCaptures && captures !== 0) {
    num[n + CAPTURES] = num[n + CAPTURES]! + captures;
    // A territory player's tallies can cap nothing any more (xinbo-points.ts, closePeriod).
    if (table.small[i * SMALL + TERRITORY] === 0)
      table.dayCaptures.add(i, time.calendar.dayKey(time.finishedAt), captures);
  }
}
