import type { LadderEvent, PlayerAnnulled } from '@ranking/contracts';
import {
  ladderLog,
  LadderRepository,
  type Sql,
  type SkilledPlayer,
  storedAnnulments,
} from '@ranking/persistence';
import {
  annulmentOf,
  annulmentWhy,
  type LadderConfig,
  LadderFold,
  type PlayerChange,
  type PlayerState,
  refoldChanges,
  SKILL_PRIOR,
  type Skill,
} from '@ranking/rating';

/** What an annulment did: a change per moved player, the players after it, the estimates it moved. */
export interface AnnulmentResult {
  readonly changes: readonly PlayerChange[];
  readonly players: ReadonlyMap<string, PlayerState>;
  readonly skill: ReadonlyMap<string, { readonly before: Skill; readonly after: Skill }>;
}

/** Rows read or written per statement when a re-fold rewrites a ladder. */
const PAGE = 10_000;
/** Game records per COPY (into a ladder whose records were deleted in the same transaction). */
const GAMES_PAGE = 25_000;

/**
 * An annulment applied live: the ladder re-folded from its whole stored log (the annulment
 * and the rest of the batch so far already appended, so the transaction reads them), the
 * players it moved written back and every game record replaced (later games were re-rated, so
 * their snapshots changed). Returns the changes, one per player whose state changed, each with
 * the annulment as its why. The skill estimate is re-folded with it: players whose estimate
 * moved are written (those whose estimate alone moved get no history row), and one left
 * without a counted game loses theirs.
 */
export async function applyAnnulment(
  sql: Sql,
  ladder: LadderConfig,
  event: PlayerAnnulled,
): Promise<AnnulmentResult> {
  const repo = new LadderRepository(sql);
  // The log's annulments first, then the log streamed through a fold that knows them: the
  // fold runs while PostgreSQL sends the rows, and the log is never held whole.
  const annulments = await storedAnnulments(sql, ladder.id);
  const refolded = LadderFold.refolding(ladder, annulments, { skill: true });
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
  const skillsBefore = new Map<string, SkilledPlayer>();
  for (let after: string | null = null; ;) {
    const page = await repo.playersWithSkillAfter(ladder.id, after, PAGE);
    if (page.players.length === 0) break;
    for (const p of page.players) before.set(p.id, p);
    for (const s of page.skills) skillsBefore.set(s.id, s);
    after = page.players[page.players.length - 1]!.id;
  }
  const why = annulmentWhy(annulmentOf(event, position));
  const changes = refoldChanges(before, refolded.players, why);
  const skills = refolded.skill!.players;
  const skill = new Map<string, { before: Skill; after: Skill }>();
  const stale: string[] = [];
  for (const [id, now] of skills) {
    const was = skillsBefore.get(id);
    if (
      was &&
      was.mu === now.mu &&
      was.sigma === now.sigma &&
      was.lastPlayedAt === now.lastPlayedAt
    )
      continue;
    skill.set(id, { before: was ?? SKILL_PRIOR, after: { mu: now.mu, sigma: now.sigma } });
  }
  for (const [id, was] of skillsBefore)
    if (!skills.has(id)) {
      stale.push(id);
      skill.set(id, { before: was, after: SKILL_PRIOR });
    }
  const result = { changes, players: refolded.players, skill };
  if (changes.length === 0 && skill.size === 0) return result;
  // Players whose estimate alone moved are written too; the history lists rating changes only.
  const ids = new Set(changes.map((c) => c.player));
  for (const id of skill.keys()) if (refolded.players.has(id)) ids.add(id);
  const moved = [...ids].map((id) => refolded.players.get(id)!);
  for (let i = 0; i < moved.length; i += PAGE)
    await repo.upsertPlayers(ladder.id, moved.slice(i, i + PAGE), skills);
  await repo.clearSkills(ladder.id, stale);
  await repo.deleteGames(ladder.id);
  const games = [...refolded.gameRows()];
  for (let i = 0; i < games.length; i += GAMES_PAGE)
    await repo.insertGames(ladder.id, games.slice(i, i + GAMES_PAGE));
  return result;
}
