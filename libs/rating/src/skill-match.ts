import type { GameResult, PlayerReport } from '@ranking/contracts';
import type { PlayerEffect } from './effect.js';

/**
 * A game as the skill estimate sees it: its sides (players by their index in the event) and
 * each side's place, 1 first; sides with equal places drew. Each rule set says how its games
 * become one (`RuleSet.skillMatch`).
 */
export interface SkillMatch {
  readonly sides: readonly (readonly number[])[];
  readonly places: readonly number[];
}

const PLACE: Record<GameResult, number> = { win: 1, draw: 1, loss: 2 };

/**
 * Each player's result as the game was scored (derived results included); null when a player
 * has none (a game scored as nothing, e.g. a correction to a game that moves no counter).
 */
function resultsOf(effects: readonly PlayerEffect[]): GameResult[] | null {
  const results: GameResult[] = [];
  for (const effect of effects) {
    if (effect.result === null) return null;
    results.push(effect.result);
  }
  return results;
}

/** Every player a side of their own, placed by result (a two-player game: one versus one). */
export function headToHead(
  _players: readonly PlayerReport[],
  effects: readonly PlayerEffect[],
): SkillMatch | null {
  const results = resultsOf(effects);
  if (results === null) return null;
  return { sides: results.map((_, i) => [i]), places: results.map((r) => PLACE[r]) };
}

/**
 * Players grouped into sides by a key (a team, a seat's parity), in order of first
 * appearance; a side's place is its players' result (teammates share one).
 */
export function teamsBy(
  players: readonly PlayerReport[],
  effects: readonly PlayerEffect[],
  sideOf: (player: PlayerReport) => string,
): SkillMatch | null {
  const results = resultsOf(effects);
  if (results === null) return null;
  const index = new Map<string, number>();
  const sides: number[][] = [];
  const places: number[] = [];
  players.forEach((p, i) => {
    const key = sideOf(p);
    let side = index.get(key);
    if (side === undefined) {
      index.set(key, (side = sides.length));
      sides.push([]);
      places.push(PLACE[results[i]!]);
    }
    sides[side]!.push(i);
  });
  return { sides, places };
}

/** Every player a side of their own, placed as given (a ranking of three). */
export const ranking = (places: readonly number[]): SkillMatch => ({
  sides: places.map((_, i) => [i]),
  places: [...places],
});
