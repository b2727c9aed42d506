import type { PlayerAnnulled } from '@ranking/contracts';
import { ladderLogTexts, LadderRepository, type Sql } from '@ranking/persistence';
import {
  annulmentOf,
  annulmentWhy,
  type LadderConfig,
  LadderFold,
  LadderLog,
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
 * the annulment as its why. The log is held as text while it folds: about 300 bytes an event.
 */
export async function applyAnnulment(
  sql: Sql,
  ladder: LadderConfig,
  event: PlayerAnnulled,
): Promise<PlayerChange[]> {
  const repo = new LadderRepository(sql);
  const texts = await ladderLogTexts(sql, ladder.id);
  const log = LadderLog.of(texts);
  // The annulment was appended last: it is the log's last event.
  const position = texts.length - 1;
  if (log.annulments.at(-1)?.position !== position)
    throw new Error(`ladder ${ladder.id}: annulment ${event.id} is not the last event of its log`);
  const refolded = LadderFold.fromLog(ladder, log.events(), log.annulments);
  if (refolded.accepted !== texts.length)
    throw new Error(
      `ladder ${ladder.id}: the re-fold for ${event.id} rejected ${texts.length - refolded.accepted} stored events`,
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
