import type { ConsumedMessage, PartitionBatch } from './consumed-message.js';
import type { OutcomeCount } from './message-outcome.js';

/** A partition's stored checkpoint, locked for the transaction. */
export interface LockedCheckpoint {
  /** The next offset to apply, null when nothing was ever stored (or the log was recreated). */
  readonly stored: bigint | null;
  /** The stored checkpoint lay beyond the partition's log: it is read from its start again. */
  readonly logRecreated: boolean;
}

/**
 * One consumer's checkpoints of one topic, kept in the same store (and transaction `Tx`) as
 * what the messages change, so a message's effect and the checkpoint past it commit together.
 */
export interface CheckpointStore<Tx> {
  /** Locks the partitions' checkpoints, each checked against its log's end. */
  lock(
    tx: Tx,
    logEnds: ReadonlyMap<number, bigint | undefined>,
  ): Promise<ReadonlyMap<number, LockedCheckpoint>>;
  /** Moves the partitions' checkpoints to these next offsets. */
  save(tx: Tx, next: ReadonlyMap<number, bigint>): Promise<void>;
  /** Every stored checkpoint (where assignment seeks). */
  all(tx: Tx): Promise<ReadonlyMap<number, bigint>>;
  /** The checkpoints are Kafka's committed offsets: the consumer commits after every batch. */
  readonly inKafka?: boolean;
}

/** What a guarded transaction did. */
export interface GuardedOutcome {
  /** Messages handed to the work (above their partition's checkpoint). */
  readonly applied: number;
  /** Messages at or below their partition's checkpoint: delivered before, changed nothing. */
  readonly skipped: number;
  /** Partitions whose stored checkpoint lay beyond their log. */
  readonly recreated: readonly number[];
  /** Each partition's checkpoint after the transaction (null: none stored, none moved). */
  readonly next: ReadonlyMap<number, bigint | null>;
  /** How the messages ended, as the work counted them, plus the skipped ones as duplicates. */
  readonly outcomes: readonly OutcomeCount[];
}

/**
 * A batch that begins above its partition's stored checkpoint: the consumer's fetch position is
 * ahead of the store. The store forgot commits this consumer made (a standby promoted without
 * them, a restore under a running consumer) or assignment never sought to the checkpoints.
 * Applying it would step over the messages between, for good: nothing is applied, and the
 * consumer reads the partition again from the stored checkpoint.
 */
export interface CheckpointGap {
  readonly partition: number;
  /** The stored checkpoint: the next offset the store expects. */
  readonly stored: bigint;
  /** Where the batch begins. */
  readonly fetched: bigint;
}

/** Thrown out of the guarded transaction (so it rolls back) when a batch begins past a gap. */
export class CheckpointGapError extends Error {
  constructor(readonly gaps: readonly CheckpointGap[]) {
    super(
      `the stored checkpoints lie behind what was fetched (${gaps
        .map((g) => `partition ${g.partition}: stored ${g.stored}, fetched from ${g.fetched}`)
        .join('; ')}): the store lost commits, the partitions are read again from the checkpoints`,
    );
    this.name = 'CheckpointGapError';
  }
}

/** What a guarded transaction's work returns: how its messages ended, if it counts them. */
export type GuardedWork<Tx> = (
  tx: Tx,
  fresh: readonly ConsumedMessage[],
) => Promise<readonly OutcomeCount[] | void>;

/**
 * The checkpoint guard, inside the caller's transaction: locks the batches' checkpoints, hands
 * only the messages above them to `work` (partition after partition, each in offset order), and
 * moves every checkpoint past its batch. A redelivered message (after a crash, a rebalance, or
 * part of a split batch already applied) therefore changes nothing. A batch that begins above
 * its stored checkpoint is refused with a CheckpointGapError (nothing applied), unless
 * `tolerated` says that gap holds no message any more (retention removed it).
 */
export async function applyAboveCheckpoints<Tx>(
  tx: Tx,
  checkpoints: CheckpointStore<Tx>,
  batches: readonly PartitionBatch[],
  work: GuardedWork<Tx>,
  tolerated: (gap: CheckpointGap) => boolean = () => false,
): Promise<GuardedOutcome> {
  const sorted = [...batches].sort((a, b) => a.partition - b.partition);
  const locked = await checkpoints.lock(tx, new Map(sorted.map((b) => [b.partition, b.logEnd])));
  const gaps: CheckpointGap[] = [];
  for (const batch of sorted) {
    const checkpoint = locked.get(batch.partition);
    const first = batch.messages[0];
    if (!checkpoint || checkpoint.stored === null || checkpoint.logRecreated || !first) continue;
    const gap = {
      partition: batch.partition,
      stored: checkpoint.stored,
      fetched: BigInt(first.offset),
    };
    if (gap.fetched > gap.stored && !tolerated(gap)) gaps.push(gap);
  }
  if (gaps.length > 0) throw new CheckpointGapError(gaps);
  const fresh: ConsumedMessage[] = [];
  const moved = new Map<number, bigint>();
  const next = new Map<number, bigint | null>();
  let skipped = 0;
  for (const batch of sorted) {
    const stored = locked.get(batch.partition)?.stored ?? null;
    for (const m of batch.messages) {
      if (stored === null || BigInt(m.offset) >= stored) fresh.push(m);
      else skipped++;
    }
    const last = batch.messages[batch.messages.length - 1];
    if (last && (stored === null || BigInt(last.offset) >= stored))
      moved.set(batch.partition, BigInt(last.offset) + 1n);
    next.set(batch.partition, moved.get(batch.partition) ?? stored);
  }
  const counted = fresh.length > 0 ? await work(tx, fresh) : [];
  await checkpoints.save(tx, moved);
  const recreated = [...locked].filter(([, l]) => l.logRecreated).map(([p]) => p);
  // A work that does not count its messages applied them all.
  const outcomes: OutcomeCount[] = counted
    ? [...counted]
    : fresh.length > 0
      ? [{ outcome: 'applied', count: fresh.length }]
      : [];
  if (skipped > 0) outcomes.push({ outcome: 'duplicate', count: skipped });
  return { applied: fresh.length, skipped, recreated, next, outcomes };
}

/**
 * For a consumer whose work is idempotent and kept outside any transaction of ours (the
 * boards, rebuilt from PostgreSQL rows): Kafka's committed offsets are its checkpoints, so
 * every delivered message is fresh and a redelivery simply applies again.
 */
export const KAFKA_COMMITTED_OFFSETS: CheckpointStore<void> = {
  lock: (_tx, logEnds) =>
    Promise.resolve(
      new Map([...logEnds.keys()].map((p) => [p, { stored: null, logRecreated: false }])),
    ),
  save: () => Promise.resolve(),
  all: () => Promise.resolve(new Map()),
  inKafka: true,
};
