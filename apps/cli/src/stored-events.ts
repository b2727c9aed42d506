import type { LadderEvent } from '@ranking/contracts';
import { LadderRepository, readEventPayloads, type Sql } from '@ranking/persistence';
import { progressBar } from './progress.js';

/** Below this many events a re-fold takes a moment: no progress bar. */
const LONG_RUN = 100_000;

/** Where the events come from, and what the reader and its progress are called. */
export interface StoredLadder {
  readonly databaseUrl: string;
  readonly ladder: string;
  /** The reader connection's name (pg_stat_activity). */
  readonly applicationName: string;
  /** The command the progress lines speak for. */
  readonly context: string;
}

export interface StoredRead {
  readonly events: number;
  readonly seconds: number;
  /** The ladder's last event-store sequence at the moment read. */
  readonly lastSeq: number;
}

/**
 * Hands each stored event of one ladder to `onEvent`, in log order, as the caller's transaction
 * sees the store (`sql`: its count and the read share one snapshot). The event store holds only
 * events that passed the contract's validation on their way in, each id once (a unique key) and
 * each under its own ladder, so a payload is parsed, not validated again, and no id set is kept.
 *
 * A worker thread streams the payloads (one COPY on a connection of its own that imports this
 * transaction's snapshot) while this thread parses them and calls `onEvent`: what `ranking
 * rebuild` and `ranking whatif --from-store` fold.
 */
export async function forEachStoredEvent(
  sql: Sql,
  source: StoredLadder,
  onEvent: (event: LadderEvent) => void,
  /** Each batch of payloads (one a line) as read, before its events go to `onEvent`. */
  onBatch?: (batch: string) => void,
): Promise<StoredRead> {
  const counters = (await new LadderRepository(sql).activeLadders()).get(source.ladder);
  const total = counters?.accepted ?? 0;
  const [{ snapshot }] = (await sql.query('SELECT pg_export_snapshot() AS snapshot')) as [
    { snapshot: string },
  ];
  const bar = progressBar(total >= LONG_RUN ? total : 0, 'events', source.context);
  const started = process.hrtime.bigint();
  let events = 0;
  const reader = {
    databaseUrl: source.databaseUrl,
    snapshot,
    ladder: source.ladder,
    applicationName: source.applicationName,
  };
  for await (const batch of readEventPayloads(reader)) {
    onBatch?.(batch);
    // One payload a line; a slice of the batch is parsed where it lies.
    for (let at = 0; at < batch.length;) {
      const end = batch.indexOf('\n', at);
      onEvent(JSON.parse(batch.slice(at, end)) as LadderEvent);
      events++;
      at = end + 1;
    }
    bar.update(events);
  }
  bar.stop();
  return {
    events,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    lastSeq: counters?.lastSeq ?? 0,
  };
}
