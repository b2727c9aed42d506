import { OffsetStore, type RawMessage, type Sql } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { BatchProcessor, type BatchResult } from './batch-processor.js';

/** The consumer name under which the rating service keeps its checkpoints. */
export const RATING_CONSUMER = 'rating-service';

/**
 * One partition's batch inside one transaction: messages at or below the stored checkpoint
 * change nothing (a redelivery after a crash or a rebalance), the rest are folded, and the
 * checkpoint moves past the last message in the same transaction.
 */
export async function handlePartitionBatch(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  partition: number,
  messages: readonly RawMessage[],
  options: {
    consumer?: string;
    topics?: { ratingChanges: string; deadLetter: string };
    /** The partition's log end with this batch: a checkpoint beyond it means a recreated log. */
    logEnd?: bigint;
  } = {},
): Promise<BatchResult & { skipped: number; nextOffset: bigint | null; logRecreated: boolean }> {
  const consumer = options.consumer ?? RATING_CONSUMER;
  const offsets = new OffsetStore(sql);
  const { stored, logRecreated } = await offsets.lockWithin(
    consumer,
    topic,
    partition,
    options.logEnd,
  );
  const fresh = messages.filter((m) => stored === null || BigInt(m.offset) >= stored);
  if (fresh.length === 0)
    return {
      accepted: 0,
      duplicates: 0,
      rejected: 0,
      skipped: messages.length,
      nextOffset: stored,
      logRecreated,
    };
  const result = await new BatchProcessor(sql, ladders, options.topics).process(fresh);
  const nextOffset = BigInt(fresh[fresh.length - 1]!.offset) + 1n;
  await offsets.save(consumer, topic, partition, nextOffset);
  return { ...result, skipped: messages.length - fresh.length, nextOffset, logRecreated };
}
