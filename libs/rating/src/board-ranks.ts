import type { LadderConfig } from './ladder-config.js';
import type { PlayerState } from './player-state.js';
import { isRanked } from './standings.js';

/**
 * The board of a ladder's players as the leaderboard shows it: the ranked ones, highest rating
 * first, with competition ranks (1, 2, 2, 4: players with equal ratings share a rank). Empty
 * for a ladder that is never ranked.
 */
export function boardRanks(
  players: Iterable<PlayerState>,
  ladder: LadderConfig,
): Map<string, number> {
  const ranked: PlayerState[] = [];
  for (const p of players) if (isRanked(p, ladder)) ranked.push(p);
  ranked.sort((a, b) => b.rating - a.rating);
  const ranks = new Map<string, number>();
  for (let i = 0; i < ranked.length; i++) {
    const p = ranked[i]!;
    const tied = i > 0 && ranked[i - 1]!.rating === p.rating;
    ranks.set(p.id, tied ? ranks.get(ranked[i - 1]!.id)! : i + 1);
  }
  return ranks;
}
