import type { GameResult } from '@ranking/contracts';
import { type PlayerEffect, rated, type Why } from '../effect.js';
import { kFor, type KTable } from '../k-table.js';
import type { LadderConfig } from '../ladder-config.js';
import { penalize } from '../penalty.js';
import { countIn, forgetThrough } from '../period-counts.js';
import type { PeriodWindow } from '../period-clock.js';
import { type PlayerState, updatePlayer } from '../player-state.js';
import { roundHalfUp } from '../rounding.js';
import type { GameInput, GameScore, PlayerClose, RuleSet } from '../rule-set.js';
import { missingResult, scoreOf, twoPlayerResults } from '../two-player-results.js';
import { IGAME_ELO_PARAMS, type IgameEloParams, type RescaleRow } from './igame-elo-params.js';
import { headToHead } from '../skill-match.js';

const DEFAULTS = IGAME_ELO_PARAMS.defaults;

/** K from the player's own rating (seed 002's table unless given). */
export const igameK = (rating: number, table: KTable = DEFAULTS.k): number => kFor(table, rating);

/** Expected score against an opponent. */
export const igameExpected = (self: number, opp: number, eloScale = DEFAULTS.eloScale): number =>
  1 / (10 ** ((opp - self) / eloScale) + 1);

/**
 * The boundary a move from `from` to `to` crosses, with its rescale factor; null when none. Of
 * several crossed boundaries, the one nearest to `from` (rows are lowest first).
 */
export function tierCrossing(
  from: number,
  to: number,
  rescale: readonly RescaleRow[] = DEFAULTS.rescale,
): { boundary: number; factor: number } | null {
  if (to > from) {
    for (const row of rescale) {
      if (from < row.boundary && row.boundary <= to)
        return { boundary: row.boundary, factor: row.up };
    }
  } else if (to < from) {
    for (let i = rescale.length - 1; i >= 0; i--) {
      const row = rescale[i]!;
      if (to < row.boundary && row.boundary <= from)
        return { boundary: row.boundary, factor: row.down };
    }
  }
  return null;
}

/** New rating after a game: Elo, then the part beyond a crossed tier boundary rescaled. */
export function igameRating(
  self: number,
  opp: number,
  score: number,
  params: IgameEloParams = DEFAULTS,
) {
  const k = kFor(params.k, self);
  const expected = igameExpected(self, opp, params.eloScale);
  const next = self + k * (score - expected);
  const rescale = tierCrossing(self, next, params.rescale);
  const value = rescale ? rescale.boundary + (next - rescale.boundary) * rescale.factor : next;
  return { rating: roundHalfUp(value), k, expected, rescale };
}

/** One player's effect of a rated game against an opponent rated `opp`. */
function eloEffect(
  self: number,
  opp: number,
  result: GameResult,
  params: IgameEloParams,
): PlayerEffect {
  const score = scoreOf(result);
  const next = igameRating(self, opp, score, params);
  const why: Why = next.rescale
    ? { kind: 'elo', k: next.k, expected: next.expected, score, rescale: next.rescale }
    : { kind: 'elo', k: next.k, expected: next.expected, score };
  return rated(result, next.rating - self, why);
}

function score({ players, before, ladder }: GameInput<IgameEloParams>): GameScore {
  const results = twoPlayerResults(players);
  if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
  const ip = players[0]!.ip;
  if (ip !== undefined && ip === players[1]!.ip) return { kind: 'void', reason: 'same-ip' };
  const a = before[0]!.rating;
  const b = before[1]!.rating;
  return {
    kind: 'scored',
    effects: [
      eloEffect(a, b, results.results[0], ladder.params),
      eloEffect(b, a, results.results[1], ladder.params),
    ],
  };
}

/** The weekly quota and the monthly inactivity penalty, with the ladder's numbers. */
function closePeriod(
  window: PeriodWindow,
  player: PlayerState,
  ladder: LadderConfig<IgameEloParams>,
): PlayerClose | null {
  const weekly = window.period === 'weekly';
  if (window.period === 'daily') return null;
  const params = ladder.params;
  const counts = weekly ? player.weekGames : player.monthGames;
  const played = countIn(counts, window.key);
  // Closing a period forgets its count and any older one.
  const forgotten = forgetThrough(counts, window.key);
  const active = player.firstRatedAt !== null && player.firstRatedAt < window.end;
  const short = weekly ? played < params.weeklyQuota : played === 0;
  if ((!active || !short) && forgotten === counts) return null;
  const next = updatePlayer(player, weekly ? { weekGames: forgotten } : { monthGames: forgotten });
  if (!active || !short) return { player: next, why: null };
  const points = weekly ? params.weeklyPenalty : params.monthlyPenalty;
  const rating = penalize(player.rating, points, params.floor);
  return {
    player: updatePlayer(next, { rating }),
    why: {
      kind: 'penalty',
      reason: weekly ? 'weekly-quota' : 'monthly-inactivity',
      points,
      floor: params.floor,
      played,
      quota: weekly ? params.weeklyQuota : 1,
    },
  };
}

export const igameElo: RuleSet = {
  name: 'igame-elo',
  params: IGAME_ELO_PARAMS,
  reportFields: ['result', 'ip'],
  playerCounts: [2],
  skillMatch: headToHead,
  closes: ['weekly', 'monthly'],
  penalties: { floor: (ladder: LadderConfig<IgameEloParams>) => ladder.params.floor },
  // The params hold the disconnect rule's numbers under its names.
  disconnects: (ladder: LadderConfig<IgameEloParams>) => ladder.params,
  keepsRating: true,
  tracksDailyCaptures: false,
  requiredFields: (players) => missingResult(players),
  score,
  closePeriod,
  outputFields: (player) => ({ disconnects: player.disconnects }),
};
