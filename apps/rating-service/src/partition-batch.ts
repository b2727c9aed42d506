import { applyAboveCheckpoints, type ConsumedMessage, type PartitionBatch } from '@ranking/kafka';
import { OffsetStore, REJECTING_CONSUMER, type Sql } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { BatchProcessor, type BatchResult } from './batch-processor.js';

/**
 * The consumer name under which the rating service keeps its checkpoints and its rejections
 * (the ones the export lists as the contract's).
 */
export const RATING_CONSUMER = REJECTING_CONSUMER;

export type RatingTopics = { ratingChanges: string; deadLetter: string };

export type GroupResult = BatchResult & {
  skipped: number;
  /** Per partition: the checkpoint after the group. */
  nextOffsets: ReadonlyMap<number, bigint | null>;
  /** Partitions whose stored checkpoint lay beyond their log. */
  recreated: readonly number[];
};

/**
 * Several partitions' batches in the caller's transaction through the shared checkpoint guard
 * and the rating fold: what the consumer's handler does, with the fold's counts returned
 * (tests and benches use it).
 */
export async function handleBatchGroup(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  batches: readonly PartitionBatch[],
  options: { consumer?: string; topics?: RatingTopics } = {},
): Promise<GroupResult> {
  let result: BatchResult = { accepted: 0, duplicates: 0, rejected: 0, outcomes: [] };
  const guarded = await applyAboveCheckpoints(
    sql,
    OffsetStore.checkpointsOf(options.consumer ?? RATING_CONSUMER, topic),
    batches,
    async (tx, fresh) => {
      result = await new BatchProcessor(tx, ladders, options.topics).process(fresh);
    },
  );
  return {
    ...result,
    skipped: guarded.skipped,
    nextOffsets: guarded.next,
    recreated: guarded.recreated,
  };
}

/** One partition's batch in the caller's transaction: a group of one. */
export async function handlePartitionBatch(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  partition: number,
  messages: readonly ConsumedMessage[],
  options: { consumer?: string; topics?: RatingTopics; logEnd?: bigint } = {},
): Promise<BatchResult & { skipped: number; nextOffset: bigint | null; logRecreated: boolean }> {
  const { logEnd } = options;
  const result = await handleBatchGroup(
    sql,
    ladders,
    topic,
    [{ partition, messages, ...(logEnd === undefined ? {} : { logEnd }) }],
    options,
  );
  return {
    accepted: result.accepted,
    duplicates: result.duplicates,
    rejected: result.rejected,
    outcomes: result.outcomes,
    skipped: result.skipped,
    nextOffset: result.nextOffsets.get(partition) ?? null,
    logRecreated: result.recreated.includes(partition),
  };
}
