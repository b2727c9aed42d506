/** A partition's log as the broker reports it (kafkajs `fetchTopicOffsets`). */
export interface PartitionLog {
  readonly partition: number;
  /** The next offset to be written (the log's end). */
  readonly high: bigint;
  /** The oldest offset still in the log. */
  readonly low: bigint;
}

/** How far a consumer is behind, measured at `at`. */
export interface ConsumerLag {
  readonly at: number;
  /** Messages not yet applied, by partition. */
  readonly partitions: ReadonlyMap<number, bigint>;
  readonly total: bigint;
}

/**
 * Each partition's lag: the messages between the consumer's next offset (its checkpoint, or the
 * log's start when it has none) and the log's end. A checkpoint beyond the end (a recreated log)
 * counts as the whole log, which the consumer will read again.
 */
export function consumerLag(
  logs: readonly PartitionLog[],
  positions: ReadonlyMap<number, bigint>,
  at: number,
): ConsumerLag {
  const partitions = new Map<number, bigint>();
  let total = 0n;
  for (const { partition, high, low } of logs) {
    const stored = positions.get(partition);
    const from = stored === undefined || stored > high ? low : stored < low ? low : stored;
    const lag = high - from;
    partitions.set(partition, lag);
    total += lag;
  }
  return { at, partitions, total };
}
