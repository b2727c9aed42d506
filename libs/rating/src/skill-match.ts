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

/** Each player's result: the decision's (derived results included), else the report's. */
function resultsOf(
  players: readonly PlayerReport[],
  effects: readonly PlayerEffect[] | null,
): GameResult[] | null {
  const results: GameResult[] = [];
  for (let i = 0; i < players.length; i++) {
    const result = effects?.[i]?.result ?? players[i]!.result ?? null;
    if (result === null) return null;
    results.push(result);
  }
  return results;
}

/** Every player a side of their own, placed by result (a two-player game: one versus one). */
export function headToHead(
  players: readonly PlayerReport[],
  effects: readonly PlayerEffect[] | null,
): SkillMatch | null {
  const results = resultsOf(players, effects);
  if (results === null) return null;
  return { sides: results.map((_, i) => [i]), places: results.map((r) => PLACE[r]) };
}

/**
 * Players grouped into sides by a key (a team, a seat's parity), in order of first
 * appearance; a side's place is its players' result (teammates share one).
 */
export function teamsBy(
  players: readonly PlayerReport[],
  effects: readonly PlayerEffect[] | null,
  sideOf: (player: PlayerReport) => string,
): SkillMatch | null {
  const results = resultsOf(players, effects);
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
