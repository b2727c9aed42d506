import type { GameResult } from '@ranking/contracts';
import { type PlayerEffect, rated, type Why } from '../effect.js';
import { penalize } from '../penalty.js';
import { countIn, forgetThrough } from '../period-counts.js';
import { updatePlayer } from '../player-state.js';
import { roundHalfUp } from '../rounding.js';
import type { PlayerClose, RuleSet } from '../rule-set.js';
import { missingResult, scoreOf, twoPlayerResults } from '../two-player-results.js';

export const IGAME_FLOOR = 100;
export const WEEKLY_QUOTA = 7;
export const WEEKLY_PENALTY = -30;
export const MONTHLY_PENALTY = -200;

/** K from the player's own rating (seed 002). */
export const igameK = (rating: number): number => (rating < 2100 ? 32 : rating < 2400 ? 24 : 16);

/** Expected score against an opponent. */
export const igameExpected = (self: number, opp: number): number =>
  1 / (10 ** ((opp - self) / 400) + 1);

const FACTORS = { up2100: 0.75, down2100: 1.33, up2400: 0.66, down2400: 1.5 } as const;

/** The boundary a move from `from` to `to` crosses, with its rescale factor; null when none. */
export function tierCrossing(
  from: number,
  to: number,
): { boundary: number; factor: number } | null {
  if (from < 2100 && to >= 2100) return { boundary: 2100, factor: FACTORS.up2100 };
  if (from >= 2400 && to < 2400) return { boundary: 2400, factor: FACTORS.down2400 };
  if (from >= 2100 && from < 2400 && to < 2100) return { boundary: 2100, factor: FACTORS.down2100 };
  if (from < 2400 && to >= 2400) return { boundary: 2400, factor: FACTORS.up2400 };
  return null;
}

/** New rating after a game: Elo, then the part beyond a crossed tier boundary rescaled. */
export function igameRating(self: number, opp: number, score: number) {
  const k = igameK(self);
  const expected = igameExpected(self, opp);
  const next = self + k * (score - expected);
  const rescale = tierCrossing(self, next);
  const value = rescale ? rescale.boundary + (next - rescale.boundary) * rescale.factor : next;
  return { rating: roundHalfUp(value), k, expected, rescale };
}

/** One player's effect of a rated game against an opponent rated `opp`. */
function eloEffect(self: number, opp: number, result: GameResult): PlayerEffect {
  const score = scoreOf(result);
  const next = igameRating(self, opp, score);
  const why: Why = next.rescale
    ? { kind: 'elo', k: next.k, expected: next.expected, score, rescale: next.rescale }
    : { kind: 'elo', k: next.k, expected: next.expected, score };
  return rated(result, next.rating - self, why);
}

export const igameElo: RuleSet = {
  name: 'igame-elo',
  reportFields: ['result', 'ip'],
  playerCounts: [2],
  closes: ['weekly', 'monthly'],
  penalties: { floor: IGAME_FLOOR },
  countsDisconnects: true,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields: (players) => missingResult(players),
  score({ players, before }) {
    const results = twoPlayerResults(players);
    if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
    const ip = players[0]!.ip;
    if (ip !== undefined && ip === players[1]!.ip) return { kind: 'void', reason: 'same-ip' };
    const a = before[0]!.rating;
    const b = before[1]!.rating;
    return {
      kind: 'scored',
      effects: [eloEffect(a, b, results.results[0]), eloEffect(b, a, results.results[1])],
    };
  },
  closePeriod(window, player): PlayerClose | null {
    const weekly = window.period === 'weekly';
    if (window.period === 'daily') return null;
    const counts = weekly ? player.weekGames : player.monthGames;
    const played = countIn(counts, window.key);
    // Closing a period forgets its count and any older one.
    const forgotten = forgetThrough(counts, window.key);
    const active = player.firstRatedAt !== null && player.firstRatedAt < window.end;
    const short = weekly ? played < WEEKLY_QUOTA : played === 0;
    if ((!active || !short) && forgotten === counts) return null;
    const next = updatePlayer(
      player,
      weekly ? { weekGames: forgotten } : { monthGames: forgotten },
    );
    if (!active || !short) return { player: next, why: null };
    const points = weekly ? WEEKLY_PENALTY : MONTHLY_PENALTY;
    const rating = penalize(player.rating, points, IGAME_FLOOR);
    return {
      player: updatePlayer(next, { rating }),
      why: {
        kind: 'penalty',
        reason: weekly ? 'weekly-quota' : 'monthly-inactivity',
        points,
        floor: IGAME_FLOOR,
      },
    };
  },
  outputFields: (player) => ({ disconnects: player.disconnects }),
};
