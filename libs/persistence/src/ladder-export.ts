import {
  type LadderConfig,
  type PlayerState,
  RULE_SETS,
  renderStandings,
  SkillBook,
} from '@ranking/rating';
import { ladderPayloadsCopy, payloadBatches } from './event-payload-copy.js';
import { EventStoreRepository } from './event-store-repository.js';
import { LadderCounterRepository } from './ladder-counter-repository.js';
import { PlayerRepository } from './player-repository.js';
import { VoidGameRepository } from './void-game-repository.js';
import type { SkilledPlayer } from './player-rows.js';
import { MessageLog } from './message-log.js';
import type { Sql } from './sql.js';

const PAGE = 10_000;

/**
 * The event store's payloads in log order (each ladder's events in its own order), a page of
 * texts at a time: PostgreSQL's text of each payload, never parsed and re-serialised here. The
 * next page is already being read while the caller works on this one.
 */
export async function* eventPayloadPages(
  sql: Sql,
  ladder: string | null,
  pageSize = PAGE,
  /** The first page's size: a small one lets the caller start while the next streams in. */
  firstPageSize = pageSize,
  /** Only the events recorded by this instant (see `exportLog`). */
  until: Date | null = null,
): AsyncGenerator<string[]> {
  const repo = new EventStoreRepository(sql);
  let next = repo.eventTextsAfter(ladder, null, firstPageSize, until);
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    const last = page[page.length - 1]!;
    next = repo.eventTextsAfter(ladder, { ladder: last.ladder, seq: last.seq }, pageSize, until);
    yield page.map((e) => e.payload);
  }
}

/**
 * One ladder's stored events in log order as batches of payload text, one a line, as this
 * connection sees them (a transaction reads its own appends): one COPY where the connection
 * streams it, pages otherwise. A line break between a payload's tokens comes back as a space,
 * as COPY gives it (inside a JSON string a line break is always escaped).
 */
export async function* ladderLog(sql: Sql, ladder: string): AsyncGenerator<string> {
  if (sql.copyTo) {
    yield* payloadBatches(sql.copyTo(ladderPayloadsCopy(ladder)));
    return;
  }
  for await (const page of eventPayloadPages(sql, ladder))
    yield page.map((text) => `${text.replaceAll('\n', ' ')}\n`).join('');
}

/**
 * The event store as NDJSON text, a page at a time (see `eventPayloadPages`). With `until`, the
 * events recorded by then: a transaction's events carry its instant (`recorded_at`, `now()`) as
 * its history rows do (`rating_history.at`), so this is the log the boards as of that instant
 * were folded from (ADR 20); each ladder's transactions run one after another, so it is a
 * prefix of each ladder's log.
 */
export async function* exportLog(
  sql: Sql,
  ladder: string | null,
  until: Date | null = null,
): AsyncGenerator<string> {
  for await (const page of eventPayloadPages(sql, ladder, PAGE, PAGE, until))
    yield `${page.join('\n')}\n`;
}

/**
 * The live state in the contract's output format (comparable with `ranking replay` of the log;
 * with `skill`, with the estimates, comparable with `ranking replay --skill`).
 */
export async function exportStandings(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  only: string | null,
  options: { readonly skill?: boolean } = {},
): Promise<Iterable<string>> {
  const active = await new LadderCounterRepository(sql).activeLadders();
  const playerRepo = new PlayerRepository(sql);
  const folds = [];
  for (const id of active.keys()) {
    const ladder = ladders.get(id);
    if (!ladder || (only !== null && id !== only)) continue;
    const players = new Map<string, PlayerState>();
    const skills: SkilledPlayer[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await playerRepo.playersWithSkillAfter(id, after, PAGE);
      if (page.players.length === 0) break;
      for (const p of page.players) players.set(p.id, p);
      skills.push(...page.skills);
      after = page.players[page.players.length - 1]!.id;
    }
    const skill = options.skill === true ? SkillBook.restore({ players: skills, games: [] }) : null;
    folds.push({ ladder, rules: RULE_SETS[ladder.ruleSet], players, skill });
  }
  const rejected = only === null ? await new MessageLog(sql).rejectedList() : [];
  return renderStandings(folds, rejected, await new VoidGameRepository(sql).voidList(only));
}
