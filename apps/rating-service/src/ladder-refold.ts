import type { LadderEvent, PlayerAnnulled } from '@ranking/contracts';
import { ladderLog, LadderRepository, type Sql, storedAnnulments } from '@ranking/persistence';
import {
  annulmentOf,
  annulmentWhy,
  type LadderConfig,
  LadderFold,
  type PlayerChange,
  type PlayerState,
  refoldChanges,
} from '@ranking/rating';

/** Rows read or written per statement when a re-fold rewrites a ladder. */
const PAGE = 10_000;
/** Game records per COPY (into a ladder whose records were deleted in the same transaction). */
const GAMES_PAGE = 25_000;

/**
 * An annulment applied live: the ladder re-folded from its whole stored log (the annulment
 * and the rest of the batch so far already appended, so the transaction reads them), the
 * players it moved written back and every game record replaced (later games were re-rated, so
 * their snapshots changed). Returns the changes, one per player whose state changed, each with
 * the annulment as its why.
 */
export async function applyAnnulment(
  sql: Sql,
  ladder: LadderConfig,
  event: PlayerAnnulled,
): Promise<PlayerChange[]> {
  const repo = new LadderRepository(sql);
  // The log's annulments first, then the log streamed through a fold that knows them: the
  // fold runs while PostgreSQL sends the rows, and the log is never held whole.
  const annulments = await storedAnnulments(sql, ladder.id);
  const refolded = LadderFold.refolding(ladder, annulments);
  let events = 0;
  for await (const batch of ladderLog(sql, ladder.id)) {
    for (
      let at = 0, end = batch.indexOf('\n');
      end >= 0;
      at = end + 1, end = batch.indexOf('\n', at)
    ) {
      refolded.evolve(JSON.parse(batch.slice(at, end)) as LadderEvent);
      events++;
    }
  }
  // The annulment was appended last: it is the log's last event.
  const position = events - 1;
  if (annulments.at(-1)?.position !== position)
    throw new Error(`ladder ${ladder.id}: annulment ${event.id} is not the last event of its log`);
  if (refolded.accepted !== events)
    throw new Error(
      `ladder ${ladder.id}: the re-fold for ${event.id} rejected ${events - refolded.accepted} stored events`,
    );
  const before = new Map<string, PlayerState>();
  for (let after: string | null = null; ;) {
    const page = await repo.playersAfter(ladder.id, after, PAGE);
    if (page.length === 0) break;
    for (const p of page) before.set(p.id, p);
    after = page[page.length - 1]!.id;
  }
  const changes = refoldChanges(
    before,
    refolded.players,
    annulmentWhy(annulmentOf(event, position)),
  );
  if (changes.length === 0) return changes;
  const moved = changes.map((c) => refolded.players.get(c.player)!);
  for (let i = 0; i < moved.length; i += PAGE)
    await repo.upsertPlayers(ladder.id, moved.slice(i, i + PAGE));
  await repo.deleteGames(ladder.id);
  const games = [...refolded.encodedGames()];
  for (let i = 0; i < games.length; i += GAMES_PAGE)
    await repo.insertGames(ladder.id, games.slice(i, i + GAMES_PAGE));
  return changes;
}
