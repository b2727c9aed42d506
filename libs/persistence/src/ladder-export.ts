import { type LadderConfig, type PlayerState, RULE_SETS, renderStandings } from '@ranking/rating';
import { LadderRepository } from './ladder-repository.js';
import { MessageLog } from './message-log.js';
import type { Sql } from './sql.js';

const PAGE = 10_000;

/** The event store as NDJSON lines in log order: each ladder's events in its own order. */
export async function* exportLog(sql: Sql, ladder: string | null): AsyncGenerator<string> {
  const repo = new LadderRepository(sql);
  let after: { ladder: string; seq: number } | null = null;
  for (;;) {
    const page = await repo.eventsAfter(ladder, after, PAGE);
    if (page.length === 0) return;
    yield page.map((e) => `${JSON.stringify(e.payload)}\n`).join('');
    const last = page[page.length - 1]!;
    after = { ladder: last.ladder, seq: last.seq };
  }
}

/** The live state in the contract's output format (comparable with `ranking replay` of the log). */
export async function exportStandings(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  only: string | null,
): Promise<Iterable<string>> {
  const repo = new LadderRepository(sql);
  const active = await repo.activeLadders();
  const folds = [];
  for (const id of active.keys()) {
    const ladder = ladders.get(id);
    if (!ladder || (only !== null && id !== only)) continue;
    const players = new Map<string, PlayerState>();
    let after: string | null = null;
    for (;;) {
      const page = await repo.playersAfter(id, after, PAGE);
      if (page.length === 0) break;
      for (const p of page) players.set(p.id, p);
      after = page[page.length - 1]!.id;
    }
    folds.push({ ladder, rules: RULE_SETS[ladder.ruleSet], players });
  }
  const rejected = only === null ? await new MessageLog(sql).rejectedList() : [];
  return renderStandings(folds, rejected, await repo.voidList(only));
}
