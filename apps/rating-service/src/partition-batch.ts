import { OffsetStore, type RawMessage, type Sql } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { BatchProcessor, type BatchResult } from './batch-processor.js';

/** The consumer name under which the rating service keeps its checkpoints. */
export const RATING_CONSUMER = 'rating-service';

/** One partition's messages, with the end of its log when they were fetched. */
export interface PartitionMessages {
  readonly partition: number;
  readonly messages: readonly RawMessage[];
  /** The partition's log end with this batch: a checkpoint beyond it means a recreated log. */
  readonly logEnd?: bigint;
}

export type GroupResult = BatchResult & {
  skipped: number;
  /** Per partition: the checkpoint after the group. */
  nextOffsets: Map<number, bigint | null>;
  /** Partitions whose stored checkpoint lay beyond their log. */
  recreated: number[];
};

/**
 * Several partitions' batches inside one transaction (a group commit): messages at or below
 * each partition's stored checkpoint change nothing (a redelivery after a crash or a
 * rebalance), the rest are folded together, partition after partition, each in offset order,
 * and every checkpoint moves past its batch in the same transaction.
 */
export async function handleBatchGroup(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  batches: readonly PartitionMessages[],
  options: { consumer?: string; topics?: { ratingChanges: string; deadLetter: string } } = {},
): Promise<GroupResult> {
  const consumer = options.consumer ?? RATING_CONSUMER;
  const offsets = new OffsetStore(sql);
  const locked = await offsets.lockManyWithin(
    consumer,
    topic,
    new Map(batches.map((b) => [b.partition, b.logEnd])),
  );
  const fresh: RawMessage[] = [];
  const nextOffsets = new Map<number, bigint | null>();
  const moved = new Map<number, bigint>();
  for (const batch of [...batches].sort((a, b) => a.partition - b.partition)) {
    const { stored } = locked.get(batch.partition)!;
    const after = batch.messages.filter((m) => stored === null || BigInt(m.offset) >= stored);
    fresh.push(...after);
    const last = after[after.length - 1];
    if (last) moved.set(batch.partition, BigInt(last.offset) + 1n);
    nextOffsets.set(batch.partition, last ? BigInt(last.offset) + 1n : stored);
  }
  const recreated = [...locked].filter(([, l]) => l.logRecreated).map(([p]) => p);
  const total = batches.reduce((n, b) => n + b.messages.length, 0);
  if (fresh.length === 0)
    return { accepted: 0, duplicates: 0, rejected: 0, skipped: total, nextOffsets, recreated };
  const result = await new BatchProcessor(sql, ladders, options.topics).process(fresh);
  await offsets.saveMany(consumer, topic, moved);
  return { ...result, skipped: total - fresh.length, nextOffsets, recreated };
}

/** One partition's batch inside one transaction: a group of one (tests and benches use it). */
export async function handlePartitionBatch(
  sql: Sql,
  ladders: ReadonlyMap<string, LadderConfig>,
  topic: string,
  partition: number,
  messages: readonly RawMessage[],
  options: {
    consumer?: string;
    topics?: { ratingChanges: string; deadLetter: string };
    logEnd?: bigint;
  } = {},
): Promise<BatchResult & { skipped: number; nextOffset: bigint | null; logRecreated: boolean }> {
  const result = await handleBatchGroup(
    sql,
    ladders,
    topic,
    [{ partition, messages, ...(options.logEnd === undefined ? {} : { logEnd: options.logEnd }) }],
    options,
  );
  return {
    accepted: result.accepted,
    duplicates: result.duplicates,
    rejected: result.rejected,
    skipped: result.skipped,
    nextOffset: result.nextOffsets.get(partition) ?? null,
    logRecreated: result.recreated.includes(partition),
  };
}
