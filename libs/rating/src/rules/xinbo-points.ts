import type { GameResult } from '@ranking/contracts';
import { type PlayerEffect, rated, resultOnly } from '../effect.js';
import type { LadderConfig } from '../ladder-config.js';
import { keepPositive, NO_COUNTS } from '../period-counts.js';
import type { PeriodWindow } from '../period-clock.js';
import { type PlayerSnapshot, type PlayerState, updatePlayer } from '../player-state.js';
import type { GameInput, GameScore, PlayerClose, RuleSet } from '../rule-set.js';
import { missingResult, twoPlayerResults } from '../two-player-results.js';
import {
  type LevelBracket,
  XINBO_POINTS_PARAMS,
  type XinboPointsParams,
} from './xinbo-points-params.js';
import { headToHead } from '../skill-match.js';

/** Seed 004: 200 points a level, 25级 the weakest; the capture stage ends at 14级 with 2200. */
export const POINTS_PER_LEVEL = 200;
export const WEAKEST_LEVEL = 25;
export const TERRITORY_LEVEL = 14;
export const TERRITORY_START_SCORE = (WEAKEST_LEVEL - TERRITORY_LEVEL) * POINTS_PER_LEVEL;
/** Check 5 (the rating gap) applies when both players are at this official level or stronger. */
const GAP_CHECK_LEVEL = 9;
/** A drawn capture game credits its target only when it was long enough. */
const DRAW_MOVES: Record<3 | 5, number> = { 3: 50, 5: 80 };

export const levelFromScore = (score: number): number =>
  Math.max(1, WEAKEST_LEVEL - Math.floor(score / POINTS_PER_LEVEL));

/** Score bracket of an official level: what a win and a loss are worth (seed 004's brackets unless given). */
export function bracketOf(
  level: number,
  brackets: readonly LevelBracket[] = XINBO_POINTS_PARAMS.defaults.brackets,
): { levels: string; win: number; loss: number } {
  // Rows run weakest to strongest: the first one whose strongest level the player has reached.
  let row = brackets[brackets.length - 1]!;
  for (const b of brackets) {
    if (level >= b.strongest) {
      row = b;
      break;
    }
  }
  const levels =
    row.weakest === row.strongest ? `${row.weakest}` : `${row.weakest}-${row.strongest}`;
  return { levels, win: row.win, loss: row.loss };
}

function captureEffect(
  input: GameInput<XinboPointsParams>,
  i: number,
  result: GameResult,
  before: PlayerSnapshot,
): PlayerEffect {
  const target = input.setting.captureTarget ?? 3;
  const reported = input.players[i]!.captures ?? 0;
  const credited = result === 'draw' ? (input.moves >= DRAW_MOVES[target] ? target : 0) : reported;
  const room = Math.max(0, input.ladder.params.dailyCaptureCap - before.dayTally);
  const valid = Math.min(credited, room);
  return rated(result, 0, { kind: 'captures', reported, credited, valid }, valid);
}

function territoryEffect(
  result: GameResult,
  before: PlayerSnapshot,
  gate: string | null,
  params: XinboPointsParams,
): PlayerEffect {
  if (gate !== null) return resultOnly(result, { kind: 'gate', gate });
  const bracket = bracketOf(before.level, params.brackets);
  const points = result === 'win' ? bracket.win : result === 'loss' ? bracket.loss : 0;
  // Score never goes below 0.
  const delta = Math.max(-before.rating, points);
  return rated(result, delta, { kind: 'bracket', levels: bracket.levels, result });
}

/** Gates that make a territory game result-only for both players (checks 3 to 5). */
function territoryGate(input: GameInput<XinboPointsParams>): string | null {
  const { setting, players, before } = input;
  if (setting.teacher) return 'teacher';
  if (setting.handicap >= 3) return 'handicap>=3';
  const [a, b] = [before[0]!, before[1]!];
  if (a.territory && b.territory && a.level <= GAP_CHECK_LEVEL && b.level <= GAP_CHECK_LEVEL) {
    const whiteIndex = players[1]!.side === 'white' ? 1 : 0;
    const white = before[whiteIndex]!.rating - POINTS_PER_LEVEL * setting.handicap;
    const black = before[1 - whiteIndex]!.rating;
    const gapLimit = input.ladder.params.gapLimit;
    if (Math.abs(white - black) >= gapLimit) return `gap>=${gapLimit}`;
  }
  return null;
}

function score(input: GameInput<XinboPointsParams>): GameScore {
  const results = twoPlayerResults(input.players);
  if (!results.ok) return { kind: 'rejected', rejection: results.rejection };
  const capture = input.setting.kind === 'capture';
  if (!capture) {
    if (input.setting.tournament) return { kind: 'recorded' };
    if (input.moves < input.ladder.params.minMoves) return { kind: 'void', reason: 'too-short' };
  }
  const gate = capture ? null : territoryGate(input);
  const effects = results.results.map((result, i) => {
    const before = input.before[i]!;
    if (before.territory === capture) {
      return resultOnly(result, {
        kind: 'wrong-kind',
        stage: before.territory ? 'territory' : 'capture',
      });
    }
    return capture
      ? captureEffect(input, i, result, before)
      : territoryEffect(result, before, gate, input.ladder.params);
  });
  return { kind: 'scored', effects };
}

/**
 * The daily close: official levels recomputed from captures or score. It starts a new day's
 * tally and erases no old one (RULES.md): a game that arrives late, however late, is capped by
 * what its own day already credited, and so is a correction of one. A day's tally matters only
 * to a capture game that credits a capture-stage player, so a player's tallies go when the
 * capture stage ends (for good: a territory player never goes back, their capture games are of
 * the wrong kind, and a correction recomputes from the tally saved with the game). Until then
 * they stay bounded: a day with a tally holds at least one valid capture, and a player with
 * `(25 − 14)·capturesPerLevel` of them leaves the stage at the next close; a tally that a
 * correction took back to 0 caps nothing and goes too.
 */
function closePeriod(
  window: PeriodWindow,
  player: PlayerState,
  ladder: LadderConfig<XinboPointsParams>,
): PlayerClose | null {
  if (window.period !== 'daily') return null;
  let { level, territory, rating } = player;
  if (!territory) {
    level = Math.max(
      TERRITORY_LEVEL,
      WEAKEST_LEVEL - Math.floor(player.captures / ladder.params.capturesPerLevel),
    );
    territory = level === TERRITORY_LEVEL;
    rating = territory ? TERRITORY_START_SCORE : (WEAKEST_LEVEL - level) * POINTS_PER_LEVEL;
  } else {
    // Once in the territory stage a player stays there (14级 or stronger).
    level = Math.min(TERRITORY_LEVEL, levelFromScore(rating));
  }
  const dayCaptures = !territory
    ? keepPositive(player.dayCaptures)
    : player.dayCaptures.length > 0
      ? NO_COUNTS
      : player.dayCaptures;
  if (level === player.level && rating === player.rating && dayCaptures === player.dayCaptures) {
    return null;
  }
  const moved = rating !== player.rating || level !== player.level;
  return {
    player: updatePlayer(player, { level, territory, rating, dayCaptures }),
    why: moved
      ? {
          kind: 'level',
          from: player.level,
          to: level,
          stage: territory ? 'territory' : 'capture',
        }
      : null,
  };
}

export const xinboPoints: RuleSet = {
  name: 'xinbo-points',
  params: XINBO_POINTS_PARAMS,
  reportFields: ['result', 'side', 'captures'],
  playerCounts: [2],
  skillMatch: headToHead,
  closes: ['daily'],
  penalties: { floor: () => 0 },
  disconnects: () => null,
  keepsRating: true,
  tracksDailyCaptures: true,
  requiredFields(players, setting) {
    const missing = missingResult(players);
    if (missing) return missing;
    if (setting.kind === 'capture') {
      if (setting.captureTarget === null)
        return '/context/captureTarget is required in capture games';
      const index = players.findIndex((p) => p.captures === undefined);
      if (index >= 0) return `/players/${index}/captures is required in capture games`;
      return null;
    }
    if (setting.handicap >= 1 && setting.handicap <= 2) {
      const sides = players
        .map((p) => p.side)
        .sort()
        .join(',');
      if (sides !== 'black,white') return 'a handicap game needs one black and one white player';
    }
    return null;
  },
  score,
  closePeriod,
  outputFields: (player) => ({ level: player.level, captures: player.captures }),
};
