import type { LadderEvent } from '@ranking/contracts';
import type { GameRepository, PlayerRepository } from '@ranking/persistence';
import {
  correctedGameIds,
  decodeStoredGames,
  type LadderConfig,
  type LadderSnapshot,
  playersRead,
  snapshotOfRows,
} from '@ranking/rating';

/**
 * The rows a segment's events read, per ladder, as snapshots the fold restores: the games they
 * correct (one query a ladder), then their players and those games' players (one query for all).
 */
export async function segmentRows(
  repos: { readonly games: GameRepository; readonly players: PlayerRepository },
  ladders: ReadonlyMap<string, LadderConfig>,
  events: readonly LadderEvent[],
): Promise<LadderSnapshot[]> {
  const byLadder = new Map<string, LadderEvent[]>();
  for (const e of events) {
    if (!ladders.has(e.ladder)) continue;
    const list = byLadder.get(e.ladder);
    if (list) list.push(e);
    else byLadder.set(e.ladder, [e]);
  }
  const games = new Map<string, ReturnType<typeof decodeStoredGames>>();
  const playerIds = new Map<string, string[]>();
  for (const [id, ladderEvents] of byLadder) {
    const ladder = ladders.get(id)!;
    const stored = await repos.games.loadGames(id, correctedGameIds(ladderEvents));
    const decoded = decodeStoredGames(ladder, stored);
    games.set(id, decoded);
    playerIds.set(id, playersRead(ladderEvents, decoded.records));
  }
  const found = await repos.players.loadPlayersOf(playerIds);
  return [...games].map(([id, decoded]) =>
    snapshotOfRows(
      ladders.get(id)!,
      found.get(id)?.players ?? [],
      found.get(id)?.skills ?? [],
      decoded,
    ),
  );
}
