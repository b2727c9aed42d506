import { TOPICS } from '@ranking/contracts';
import type { RawMessage } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import type { DataSource } from 'typeorm';
// The rating service's own batch code fills the database, as in production (a test, not an app, reaching in).
// eslint-disable-next-line no-restricted-imports
import { handlePartitionBatch } from '../../apps/rating-service/src/partition-batch.js';

/**
 * Folds lines into a test database as the rating service would have (event store, ladders,
 * history), one transaction per `batch` messages of one partition: what the CLI's tests that
 * read the store (rebuild, whatif) start from.
 */
export async function storeLog(
  db: DataSource,
  ladders: ReadonlyMap<string, LadderConfig>,
  lines: readonly string[],
  batch: number,
  /** The first line's offset: a later call continues the log where an earlier one ended. */
  firstOffset = 0,
): Promise<void> {
  const messages: RawMessage[] = lines.map((line, i) => ({
    topic: TOPICS.ladderEvents,
    partition: 0,
    offset: String(firstOffset + i),
    key: Buffer.from('k'),
    value: Buffer.from(line),
  }));
  for (let at = 0; at < messages.length; at += batch) {
    await db.transaction((manager) =>
      handlePartitionBatch(
        { query: (text, params) => manager.query(text, params) },
        ladders,
        TOPICS.ladderEvents,
        0,
        messages.slice(at, at + batch),
      ),
    );
  }
}
