import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { backoffDelay, sleep } from './backoff.js';
import { batchGroups } from './batch-groups.js';
import type { BatchHandler } from './batch-handler.js';
import { BatchSettler, type RetryState } from './batch-settler.js';
import type { ConsumedMessage, ConsumerLogger, PartitionBatch } from './consumed-message.js';
import { type ConsumerLag, consumerLag } from './consumer-lag.js';
import { type EventLoopWatchdog, guardEventLoop } from './event-loop-watchdog.js';
import { errorMessage } from './failure-kind.js';
import type { OutcomeCount } from './message-outcome.js';

/** What a service's metrics hear of its consumer. */
export interface ConsumerObserver {
  /** How the messages of a committed transaction ended. */
  outcomes?(outcomes: readonly OutcomeCount[]): void;
  /** A group of partition batches was settled: its messages, and the time it took in seconds. */
  settled?(messages: number, seconds: number): void;
  /**
   * A partition batch was handed over: each message's wait, in seconds, from its Kafka timestamp
   * (the producer's clock, or the broker's for LogAppendTime topics) to now.
   */
  fetched?(waits: readonly number[]): void;
  /** The lag was measured (on a timer, so a stalled consumer shows too). */
  lag?(lag: ConsumerLag): void;
}

export interface CheckpointedConsumerOptions<Tx> {
  readonly topic: string;
  readonly groupId: string;
  readonly logger: ConsumerLogger;
  /** The consumer's own part of the protocol: transaction, checkpoints, apply, quarantine. */
  readonly handler: BatchHandler<Tx>;
  /**
   * Transactions a large fetch is split into, run at once (default 1). A fetch smaller than
   * GROUP_MIN_MESSAGES per transaction is always one.
   */
  readonly transactionsInFlight?: number;
  /** Called after each partition batch is settled and its offset resolved. */
  readonly afterBatch?: (batch: PartitionBatch) => void;
  readonly observer?: ConsumerObserver;
  /**
   * How long the coordinator waits for a silent member before it reassigns its partitions
   * (kafkajs's default 30 s); heartbeats go at a third of it, at most every 3 s.
   */
  readonly sessionTimeoutMs?: number;
  /** How often the lag is measured (default LAG_INTERVAL_MS). */
  readonly lagIntervalMs?: number;
  /** How long the event loop may stand still before the process is killed (ADR 37). */
  readonly eventLoopStallMs?: number;
}

/** What health checks read of a consumer. */
export interface ConsumerStatus {
  /** When the consumer last heard from the broker (a heartbeat or a fetch), 0 after a crash. */
  readonly lastContact: number;
  /** The longest-running transient retry of a batch, if one is under way. */
  readonly retrying: RetryState | null;
  /** Messages set aside as unprocessable since the start. */
  readonly quarantined: number;
  /** The last lag measured, null before the first measurement. */
  readonly lag: ConsumerLag | null;
  /** Why the consumer stopped for good (a crash kafkajs does not restart from), else null. */
  readonly crashed: string | null;
}

/** How often a consumer measures its lag. */
export const LAG_INTERVAL_MS = 5_000;

/** The consumer fetches or heartbeats every few seconds; silence longer than this is a fault. */
export const CONSUMER_SILENCE_MS = 30_000;
/** A batch in transient retry for longer than this means the consumer is stalled for now. */
export const CONSUMER_STALL_MS = 10_000;

/** What a health check says of a consumer: null when it is well, else why not. */
export function consumerProblem(status: ConsumerStatus, now: number): string | null {
  if (now - status.lastContact > CONSUMER_SILENCE_MS)
    return 'the consumer has not reached the broker lately';
  const { retrying } = status;
  // A missing grant or topic waits for an operator: said at once, in its one line.
  if (retrying?.kind === 'misconfigured') return retrying.error;
  if (retrying && now - retrying.since > CONSUMER_STALL_MS)
    return `a batch has been retried for ${Math.round((now - retrying.since) / 1000)} s (${retrying.attempts} attempts): ${retrying.error}`;
  return null;
}

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

/**
 * The one consumer protocol of the services. It reads one topic in batches whose checkpoints
 * live beside what the messages change (the handler's store): on assignment it seeks to them,
 * and Kafka's own commits only follow. The batches of one fetch (one per partition, handed over
 * in the same turn of the event loop) are committed together: a group commit, so a steady load
 * costs one transaction per fetch rather than one per partition. Each group goes through the
 * BatchSettler: the checkpoint guard, the retry loop and the poison path.
 */
export class CheckpointedConsumer<Tx> {
  private consumer: Consumer | null = null;
  private stopping = false;
  private waiting: Waiting[] = [];
  private readonly held = new Map<number, EachBatchPayload>();
  private readonly settler: BatchSettler<Tx>;
  private lastContact = 0;
  private lag: ConsumerLag | null = null;
  private crashed: string | null = null;
  private admin: Promise<Admin> | null = null;
  private lagTimer: NodeJS.Timeout | null = null;
  private measuring = false;
  /**
   * Each held partition's checkpoint as this consumer last committed it (stored checkpoints
   * only): a store found behind it forgot those commits (ADR 38).
   */
  private readonly settledTo = new Map<number, bigint>();
  /** Assignments so far: a seek to the checkpoints of an older one gives up. */
  private joins = 0;
  private watchdog: EventLoopWatchdog | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: CheckpointedConsumerOptions<Tx>,
  ) {
    this.settler = new BatchSettler(options.handler, {
      topic: options.topic,
      logger: options.logger,
      holds: (partition) => {
        const payload = this.held.get(partition);
        return !this.stopping && payload !== undefined && payload.isRunning() && !payload.isStale();
      },
      heartbeat: async () => {
        await Promise.all([...this.held.values()].map((p) => p.heartbeat().catch(() => undefined)));
      },
      committed: (outcomes) => options.observer?.outcomes?.(outcomes),
      rewind: (partition, offset) =>
        this.consumer?.seek({ topic: options.topic, partition, offset: offset.toString() }),
    });
  }

  status(): ConsumerStatus {
    return {
      lastContact: this.lastContact,
      retrying: this.settler.retryState(),
      quarantined: this.settler.quarantined,
      lag: this.lag,
      crashed: this.crashed,
    };
  }

  async start(): Promise<void> {
    const { topic, groupId, logger, sessionTimeoutMs = 30_000 } = this.options;
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      // 4 MiB a partition (~12,000 events): a backlog's fetch fills a few large transactions
      // (drain 13-14k -> 16k events/s against 1 MiB). A steady load's fetches are small anyway:
      // the group commit takes whatever arrived, however little.
      maxBytesPerPartition: 4 << 20,
      // A fetch waits this long for data when there is none: a shutdown waits for it too.
      maxWaitTimeInMs: 1000,
      sessionTimeout: sessionTimeoutMs,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
      retry: { retries: 10 },
    });
    this.consumer = consumer;
    // A kafkajs loop that never yields (ADR 37) would leave the process deaf to HTTP and SIGTERM.
    this.watchdog ??= guardEventLoop({ stallMs: this.options.eventLoopStallMs });
    for (const event of [consumer.events.HEARTBEAT, consumer.events.FETCH_START])
      consumer.on(event, () => (this.lastContact = Date.now()));
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.lastContact = 0;
      if (!payload.restart) this.crashed = errorMessage(payload.error);
      logger.error(
        `consumer of ${topic} crashed${payload.restart ? ' (restarting)' : ' for good'}: ${errorMessage(payload.error)}`,
      );
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      this.settledTo.clear();
      void this.seekToCheckpoints(++this.joins, payload.memberAssignment[topic] ?? []);
    });
    await consumer.run({
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: WORKERS,
      // Kafka's committed offsets are only a hint where the checkpoints are stored beside the
      // data, so they are sent at most once a second instead of after every batch.
      autoCommit: false,
      autoCommitInterval: KAFKA_COMMIT_INTERVAL_MS,
      eachBatch: (payload) => this.onBatch(payload),
    });
    logger.log(`consuming ${topic} as group ${groupId}`);
    void this.measureLag();
    this.lagTimer = setInterval(
      () => void this.measureLag(),
      this.options.lagIntervalMs ?? LAG_INTERVAL_MS,
    );
    this.lagTimer.unref();
  }

  /** Stops fetching, lets the batch under way commit (or abandons its retries), disconnects. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.lagTimer) clearInterval(this.lagTimer);
    await this.consumer?.disconnect();
    await this.watchdog?.stop();
    this.watchdog = null;
    const admin = this.admin;
    this.admin = null;
    await admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  /** Measures the lag: the log ends against the checkpoints (or Kafka's committed offsets). */
  private async measureLag(): Promise<void> {
    if (this.measuring || this.stopping) return;
    this.measuring = true;
    const { topic, groupId, handler, observer } = this.options;
    try {
      this.admin ??= this.connectAdmin();
      const admin = await this.admin;
      const logs = (await admin.fetchTopicOffsets(topic)).map((p) => ({
        partition: p.partition,
        high: BigInt(p.high),
        low: BigInt(p.low),
      }));
      let positions: ReadonlyMap<number, bigint>;
      // Taken before the read: each of them was committed before it began, so the read sees it.
      const settled = new Map(this.settledTo);
      if (handler.checkpoints.inKafka) {
        const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
        positions = new Map(
          (committed?.partitions ?? [])
            .filter((p) => Number(p.offset) >= 0)
            .map((p) => [p.partition, BigInt(p.offset)]),
        );
      } else {
        positions = await handler.transaction((tx) => handler.checkpoints.all(tx));
        this.rewindForgotten(settled, positions);
      }
      if (this.stopping) return;
      this.lag = consumerLag(logs, positions, Date.now());
      observer?.lag?.(this.lag);
    } catch (error) {
      // The last measurement stands and ages; readiness says so once it is stale.
      this.options.logger.warn(`could not measure the lag of ${topic}: ${errorMessage(error)}`);
      const admin = this.admin;
      this.admin = null;
      await admin?.then((a) => a.disconnect()).catch(() => undefined);
    } finally {
      this.measuring = false;
    }
  }

  /**
   * A partition whose stored checkpoint is behind what this consumer committed there: the store
   * forgot commits (a standby promoted without them). Its next batch would show the gap too,
   * but a partition that receives nothing more would keep the loss for good: read it again now.
   */
  private rewindForgotten(
    settled: ReadonlyMap<number, bigint>,
    stored: ReadonlyMap<number, bigint>,
  ): void {
    const { topic, logger } = this.options;
    for (const [partition, mine] of settled) {
      const theirs = stored.get(partition) ?? 0n;
      if (theirs >= mine || this.settledTo.get(partition) !== mine) continue;
      logger.error(
        `${topic}/${partition}: the stored checkpoint ${theirs} lies behind ${mine}, which this consumer committed: ` +
          'the store lost commits (a failover to a standby without them, a restore); reading the partition again from the checkpoint',
        { topic, partition, stored: theirs.toString(), committed: mine.toString() },
      );
      this.settledTo.delete(partition);
      this.consumer?.seek({ topic, partition, offset: theirs.toString() });
    }
  }

  private async connectAdmin(): Promise<Admin> {
    const admin = this.kafka.admin();
    await admin.connect();
    return admin;
  }

  /**
   * Seeks the assigned partitions to their stored checkpoints, trying until it is done (or a
   * newer assignment came): until then the consumer reads from Kafka's committed offsets, which
   * lie past the stored checkpoints when the store lost commits, and a partition that receives
   * nothing more would never show it.
   */
  private async seekToCheckpoints(join: number, partitions: number[]): Promise<void> {
    const { topic, handler, logger } = this.options;
    for (let attempt = 1; join === this.joins && !this.stopping; attempt++) {
      try {
        const stored = await handler.transaction((tx) => handler.checkpoints.all(tx));
        if (join !== this.joins || this.stopping) return;
        for (const partition of partitions) {
          const offset = stored.get(partition);
          if (offset !== undefined)
            this.consumer?.seek({ topic, partition, offset: offset.toString() });
        }
        return;
      } catch (error) {
        const wait = backoffDelay(attempt);
        logger.warn(
          `could not seek to stored checkpoints (attempt ${attempt}), trying again in ${wait} ms: ${errorMessage(error)}`,
        );
        await sleep(wait);
      }
    }
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (batch.messages.length === 0) return;
    const { observer } = this.options;
    if (observer?.fetched) {
      const now = Date.now();
      observer.fetched(batch.messages.map((m) => Math.max(0, now - Number(m.timestamp)) / 1000));
    }
    const messages: ConsumedMessage[] = batch.messages.map((m) => ({
      topic: batch.topic,
      partition: batch.partition,
      offset: m.offset,
      key: m.key,
      value: m.value,
    }));
    const partitionBatch = {
      partition: batch.partition,
      messages,
      logEnd: BigInt(batch.highWatermark),
    };
    this.held.set(batch.partition, payload);
    const handled = await new Promise<boolean>((done) => {
      const first = this.waiting.length === 0;
      this.waiting.push({ batch: partitionBatch, payload, done });
      // The other partitions of the fetch arrive in this same turn of the event loop.
      if (first) setImmediate(() => this.commitWaiting());
    });
    if (this.held.get(batch.partition) === payload) this.held.delete(batch.partition);
    if (!handled) return;
    payload.resolveOffset(batch.lastOffset());
    const next = (BigInt(batch.lastOffset()) + 1n).toString();
    if (!this.options.handler.checkpoints.inKafka)
      this.settledTo.set(batch.partition, BigInt(next));
    await payload
      .commitOffsetsIfNecessary(
        this.options.handler.checkpoints.inKafka
          ? {
              topics: [
                { topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] },
              ],
            }
          : undefined,
      )
      .catch(() => undefined);
    await payload.heartbeat().catch(() => undefined);
    this.options.afterBatch?.(partitionBatch);
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

  /** Settles a group and tells each partition's worker whether it was handled; never throws. */
  private async commitGroup(group: readonly Waiting[]): Promise<void> {
    let settled: ReadonlySet<number> = new Set();
    const started = performance.now();
    try {
      settled = await this.settler.settle(group.map((w) => w.batch));
      const messages = group.reduce((n, w) => n + w.batch.messages.length, 0);
      this.options.observer?.settled?.(messages, (performance.now() - started) / 1000);
    } catch (error) {
      // The settler retries everything itself; this is a defect of ours. The partitions are
      // left unresolved, so kafkajs fetches them again.
      this.options.logger.error(`settling a group failed: ${errorMessage(error)}`);
    }
    for (const w of group) w.done(settled.has(w.batch.partition));
  }
}
