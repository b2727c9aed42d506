import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { batchGroups } from './batch-groups.js';

/** One message of a partition's batch, as the handler gets it. */
export interface ConsumedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
}

/** One partition's batch of a fetch. */
export interface PartitionBatch {
  readonly partition: number;
  readonly messages: ConsumedMessage[];
  /** The end of the partition's log when the batch was fetched (its high watermark). */
  readonly logEnd: bigint;
}

/** Where the consumer reports (a NestJS `Logger` will do). */
export interface ConsumerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface CheckpointedConsumerOptions {
  readonly topic: string;
  readonly groupId: string;
  readonly logger: ConsumerLogger;
  /** The next offset of each partition, as the handler's transactions stored it. */
  readonly checkpoints: () => Promise<ReadonlyMap<number, bigint>>;
  /**
   * Partition batches handled in one transaction, each with its checkpoint (so a redelivered
   * message changes nothing); a throw has them retried together with backoff.
   */
  readonly handleBatches: (batches: readonly PartitionBatch[]) => Promise<unknown>;
  /** Whether a failure is expected to pass (for the log: every failure is retried). */
  readonly isTransient: (error: unknown) => boolean;
  /**
   * Transactions a large fetch is split into, run at once (default 1). A fetch smaller than
   * GROUP_MIN_MESSAGES per transaction is always one.
   */
  readonly transactionsInFlight?: number;
  /** Called after a batch is handled and its offset resolved. */
  readonly afterBatch?: () => void;
}

const MAX_BACKOFF_MS = 10_000;
const KAFKA_COMMIT_INTERVAL_MS = 1000;
/** The fewest messages worth a transaction of their own when a fetch is split. */
export const GROUP_MIN_MESSAGES = 2_000;
/** kafkajs hands every partition of a fetch to its own worker, so all arrive together. */
const WORKERS = 64;

interface Waiting {
  readonly batch: PartitionBatch;
  readonly payload: EachBatchPayload;
  /** Settles true once handled, false when the partition was lost or the consumer stops. */
  readonly done: (handled: boolean) => void;
}

/** Says, loudly, that a stored checkpoint lay beyond the partition's log and was read again. */
export function warnLogRecreated(
  logger: ConsumerLogger,
  topic: string,
  partition: number,
  logEnd: bigint,
): void {
  logger.warn(
    `${topic}/${partition}: the stored checkpoint lies beyond the end of the log (${logEnd}); ` +
      'the topic was recreated or the broker started empty, so the partition is read from its ' +
      'start again (events already stored are recognised by id)',
  );
}

/**
 * Reads one topic in batches whose checkpoints live in the service's own database: on
 * assignment it seeks to them, and Kafka's own commits only follow. The batches of one fetch
 * (one per partition, handed over in the same turn of the event loop) are committed together:
 * a group commit, so a steady load costs one transaction per fetch rather than one per
 * partition. A failed group is retried with backoff, in order, for as long as the consumer runs
 * and holds its partitions.
 */
export class CheckpointedConsumer {
  private consumer: Consumer | null = null;
  private stopping = false;
  private waiting: Waiting[] = [];

  constructor(
    private readonly kafka: Kafka,
    private readonly options: CheckpointedConsumerOptions,
  ) {}

  async start(): Promise<void> {
    const { topic, groupId } = this.options;
    const consumer = this.kafka.consumer({
      groupId,
      // 4 MiB a partition (~12,000 events): a backlog's fetch fills a few large transactions
      // (drain 13-14k -> 16k events/s against 1 MiB). A steady load's fetches are small anyway:
      // the group commit takes whatever arrived, however little.
      maxBytesPerPartition: 4 << 20,
      retry: { retries: 10 },
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      void this.seekToCheckpoints(payload.memberAssignment[topic] ?? []);
    });
    await consumer.run({
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: WORKERS,
      // Kafka's committed offsets are only a hint (assignment seeks to the stored checkpoints),
      // so they are sent at most once a second instead of after every batch: one broker round
      // trip less per batch under a steady load, where batches are small.
      autoCommit: false,
      autoCommitInterval: KAFKA_COMMIT_INTERVAL_MS,
      eachBatch: (payload) => this.onBatch(payload),
    });
    this.options.logger.log(`consuming ${topic} as group ${groupId}`);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect();
  }

  private async seekToCheckpoints(partitions: number[]): Promise<void> {
    const { topic } = this.options;
    try {
      const stored = await this.options.checkpoints();
      for (const partition of partitions) {
        const offset = stored.get(partition);
        if (offset !== undefined)
          this.consumer?.seek({ topic, partition, offset: offset.toString() });
      }
    } catch (error) {
      // The checkpoint guard in each transaction keeps redelivered messages harmless anyway.
      this.options.logger.warn(`could not seek to stored checkpoints: ${(error as Error).message}`);
    }
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (batch.messages.length === 0) return;
    const messages: ConsumedMessage[] = batch.messages.map((m) => ({
      topic: batch.topic,
      partition: batch.partition,
      offset: m.offset,
      key: m.key,
      value: m.value,
    }));
    const handled = await new Promise<boolean>((done) => {
      const first = this.waiting.length === 0;
      this.waiting.push({
        batch: { partition: batch.partition, messages, logEnd: BigInt(batch.highWatermark) },
        payload,
        done,
      });
      // The other partitions of the fetch arrive in this same turn of the event loop.
      if (first) setImmediate(() => this.commitWaiting());
    });
    if (!handled) return;
    payload.resolveOffset(batch.lastOffset());
    await payload.commitOffsetsIfNecessary().catch(() => undefined);
    await payload.heartbeat().catch(() => undefined);
    this.options.afterBatch?.();
  }

  private commitWaiting(): void {
    const waiting = this.waiting.sort((a, b) => a.batch.partition - b.batch.partition);
    this.waiting = [];
    const groups = batchGroups(
      waiting.map((w) => w.batch.messages.length),
      this.options.transactionsInFlight ?? 1,
      GROUP_MIN_MESSAGES,
    );
    for (const group of groups) void this.commitGroup(group.map((i) => waiting[i]!));
  }

  /** Handles a group until it commits, dropping partitions lost meanwhile; never throws. */
  private async commitGroup(group: readonly Waiting[]): Promise<void> {
    let live = group;
    for (let attempt = 1; ; attempt++) {
      const lost = live.filter(
        (w) => this.stopping || !w.payload.isRunning() || w.payload.isStale(),
      );
      for (const w of lost) w.done(false);
      live = live.filter((w) => !lost.includes(w));
      if (live.length === 0) return;
      try {
        await this.options.handleBatches(live.map((w) => w.batch));
        for (const w of live) w.done(true);
        return;
      } catch (error) {
        const wait = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(attempt, 7));
        const kind = this.options.isTransient(error) ? 'transient' : 'unexpected';
        const which = live
          .map((w) => `${w.batch.partition}@${w.batch.messages[0]!.offset}`)
          .join(', ');
        this.options.logger.error(
          `batches ${this.options.topic}/${which} failed (${kind}, attempt ${attempt}), retrying in ${wait} ms: ${(error as Error).message}`,
        );
        await new Promise((resolve) => setTimeout(resolve, wait));
        await Promise.all(live.map((w) => w.payload.heartbeat().catch(() => undefined)));
      }
    }
  }
}
