import { backoffDelay, MISCONFIGURED_BACKOFF, sleep } from './backoff.js';
import { batchHalves, messageCount } from './batch-halves.js';
import type { BatchHandler } from './batch-handler.js';
import {
  applyAboveCheckpoints,
  type CheckpointGap,
  CheckpointGapError,
  type GuardedWork,
} from './checkpoint-guard.js';
import {
  type ConsumedMessage,
  type ConsumerLogger,
  messageFields,
  messagePlace,
  type PartitionBatch,
} from './consumed-message.js';
import { errorMessage, failureReason, type FailureKind } from './failure-kind.js';
import type { OutcomeCount } from './message-outcome.js';

/** Tries of a whole group, and of a single message, before a deterministic failure counts. */
export const DETERMINISTIC_TRIES = 3;

/** A group that keeps failing with a transient error: what health and logs show. */
export interface RetryState {
  readonly since: number;
  readonly attempts: number;
  readonly error: string;
  /** Why it is retried: `misconfigured` (a grant or topic missing) shows in readiness at once. */
  readonly kind?: FailureKind;
}

export interface SettlerOptions {
  readonly topic: string;
  readonly logger: ConsumerLogger;
  /** Whether the consumer still holds the partition (not lost in a rebalance, not stopping). */
  readonly holds: (partition: number) => boolean;
  /** Keeps the group membership alive while a batch waits to be retried. */
  readonly heartbeat: () => Promise<void>;
  /** How the messages of each committed transaction ended (metrics). */
  readonly committed?: (outcomes: readonly OutcomeCount[]) => void;
  /**
   * Moves the partition's fetch position back to `offset` (the stored checkpoint) after a batch
   * began above it (CheckpointGap); the partition's next batch comes from there.
   */
  readonly rewind: (partition: number, offset: bigint) => void;
}

/**
 * Times the same gap (same checkpoint, same first offset fetched) is read again before it is
 * taken as holding no message: the offsets between are gone from the log (retention), so
 * reading again from the checkpoint can only ever return what lies past them.
 */
export const GAP_REWINDS = 3;

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
    { topic, partition, logEnd: logEnd.toString() },
  );
}

const describeGroup = (group: readonly PartitionBatch[]): string =>
  group.map((b) => `${b.partition}@${b.messages[0]!.offset}+${b.messages.length}`).join(', ');

/**
 * The one retry loop and poison path of every consumer. A group of partition batches is applied
 * in one guarded transaction. A transient failure is retried with jittered backoff for as long
 * as it lasts; a misconfigured one (a grant or topic missing) too, slowly, shown in readiness at
 * once. A refused one (the broker's final "no" to a message) is split at once. A deterministic
 * one is tried DETERMINISTIC_TRIES times, then the group is cut in halves (each applied on its
 * own, the first before the second) until the message that fails alone is found; that message
 * is tried again (a refused one is not), and if it still fails it is handed to the handler's
 * `quarantine` in the transaction that moves its checkpoint past it.
 * Nothing is ever dropped: a quarantine that cannot be written is retried like a transient
 * failure.
 */
export class BatchSettler<Tx> {
  /** Groups in transient retry now, each with its state. */
  private readonly retrying = new Set<{ state: RetryState }>();
  /** Messages set aside since the start. */
  quarantined = 0;
  /** Partitions sent back to their checkpoint: their batches under way are stale. */
  private readonly rewound = new Set<number>();
  /** Each partition's last gap and how often it was read again. */
  private readonly gaps = new Map<number, CheckpointGap & { rewinds: number }>();

  constructor(
    private readonly handler: BatchHandler<Tx>,
    private readonly options: SettlerOptions,
  ) {}

  /** The longest-running transient retry, if one is under way. */
  retryState(): RetryState | null {
    let oldest: RetryState | null = null;
    for (const { state } of this.retrying)
      if (oldest === null || state.since < oldest.since) oldest = state;
    return oldest;
  }

  /**
   * Applies the group until every message is applied or set aside; partitions lost meanwhile
   * are dropped. Returns the partitions it settled.
   */
  async settle(group: readonly PartitionBatch[]): Promise<ReadonlySet<number>> {
    // A new batch of a rewound partition: fetched after the rewind, or stale (then it is
    // refused again, harmlessly).
    for (const b of group) this.rewound.delete(b.partition);
    const pending: PartitionBatch[][] = [[...group]];
    let whole = true;
    while (pending.length > 0) {
      // A bisection runs many transactions: stay in the group meanwhile.
      if (!whole) await this.options.heartbeat().catch(() => undefined);
      const part = this.held(pending.pop()!);
      const count = messageCount(part);
      if (count === 0) continue;
      const tries = whole || count === 1 ? DETERMINISTIC_TRIES : 1;
      whole = false;
      const failure = await this.commit(part, tries, (tx, fresh) => this.handler.apply(tx, fresh));
      if (failure === null) continue;
      if (count === 1) {
        await this.setAside(part, failure.error);
        continue;
      }
      const [first, second] = batchHalves(part);
      pending.push(second, first);
    }
    return new Set(this.held(group).map((b) => b.partition));
  }

  private held(part: readonly PartitionBatch[]): PartitionBatch[] {
    return part.filter(
      (b) =>
        b.messages.length > 0 && !this.rewound.has(b.partition) && this.options.holds(b.partition),
    );
  }

  /**
   * Sends each partition back to its stored checkpoint, loudly: the store forgot commits this
   * consumer made, and Kafka still holds the messages they applied.
   */
  private rewind(gaps: readonly CheckpointGap[]): void {
    for (const gap of gaps) {
      const seen = this.gaps.get(gap.partition);
      const same = seen && seen.stored === gap.stored && seen.fetched === gap.fetched;
      this.gaps.set(gap.partition, { ...gap, rewinds: same ? seen.rewinds + 1 : 1 });
      this.rewound.add(gap.partition);
      this.options.logger.error(
        `${this.options.topic}/${gap.partition}: the stored checkpoint ${gap.stored} lies behind the batch fetched from ${gap.fetched}: ` +
          'the store lost commits (a failover to a standby without them, a restore); reading the partition again from the checkpoint',
        {
          topic: this.options.topic,
          partition: gap.partition,
          stored: gap.stored.toString(),
          fetched: gap.fetched.toString(),
        },
      );
      this.options.rewind(gap.partition, gap.stored);
    }
  }

  /** Whether a gap was read again GAP_REWINDS times and came back the same: gone from the log. */
  private goneFromLog(gap: CheckpointGap): boolean {
    const seen = this.gaps.get(gap.partition);
    if (!seen || seen.stored !== gap.stored || seen.fetched !== gap.fetched) return false;
    if (seen.rewinds < GAP_REWINDS) return false;
    this.options.logger.error(
      `${this.options.topic}/${gap.partition}: offsets ${gap.stored} to ${gap.fetched - 1n} are not in the log any more (retention): ` +
        'what they held is lost to the store; going on from the first offset the log has',
      {
        topic: this.options.topic,
        partition: gap.partition,
        stored: gap.stored.toString(),
        fetched: gap.fetched.toString(),
      },
    );
    return true;
  }

  private async setAside(part: readonly PartitionBatch[], error: unknown): Promise<void> {
    const message: ConsumedMessage = part[0]!.messages[0]!;
    this.options.logger.error(
      `${messagePlace(message)} cannot be applied and is set aside as unprocessable: ${errorMessage(error)}`,
      { ...messageFields(message), error: errorMessage(error) },
    );
    const failure = await this.commit(part, Infinity, async (tx, fresh) => {
      await this.handler.quarantine(tx, fresh[0]!, error);
      return [{ outcome: 'unprocessable', count: 1 }];
    });
    if (failure === null) this.quarantined++;
  }

  /**
   * One guarded transaction over `part`, retried: a transient failure for as long as it lasts,
   * a deterministic one until `tries` ran out (then it is returned). Null once committed, or
   * once every partition of the part is lost.
   */
  private async commit(
    part: readonly PartitionBatch[],
    tries: number,
    work: GuardedWork<Tx>,
  ): Promise<{ error: unknown } | null> {
    const { handler, options } = this;
    const retry: { state: RetryState } = { state: { since: 0, attempts: 0, error: '' } };
    let deterministic = 0;
    try {
      for (let attempt = 1; ; attempt++) {
        const live = this.held(part);
        if (live.length === 0) return null;
        try {
          const outcome = await handler.transaction((tx) =>
            applyAboveCheckpoints(tx, handler.checkpoints, live, work, (gap) =>
              this.goneFromLog(gap),
            ),
          );
          for (const b of live) this.gaps.delete(b.partition);
          for (const partition of outcome.recreated) {
            const batch = live.find((b) => b.partition === partition)!;
            warnLogRecreated(options.logger, options.topic, partition, batch.logEnd ?? 0n);
          }
          options.committed?.(outcome.outcomes);
          return null;
        } catch (error) {
          if (error instanceof CheckpointGapError) {
            this.rewind(error.gaps);
            continue;
          }
          const kind: FailureKind = handler.classify(error);
          // The broker's final "no" to a message is not asked again: split at once (a quarantine
          // cannot be split, so one refused is retried and shown like a transient failure).
          if (kind === 'refused' && tries !== Infinity) return { error };
          if (kind === 'deterministic' && ++deterministic >= tries) return { error };
          const wait =
            kind === 'misconfigured'
              ? backoffDelay(attempt, MISCONFIGURED_BACKOFF)
              : backoffDelay(attempt);
          const reason = failureReason(error);
          // A quarantine that cannot be written is as stuck as a transient failure.
          if (kind === 'transient' || kind === 'misconfigured' || tries === Infinity) {
            retry.state = {
              since: retry.state.since || Date.now(),
              attempts: attempt,
              error: reason,
              kind,
            };
            this.retrying.add(retry);
          }
          const level = kind === 'misconfigured' ? 'error' : 'warn';
          options.logger[level](
            `${options.topic} ${describeGroup(live)} failed (${kind}, attempt ${attempt}), retrying in ${wait} ms: ${reason}`,
            {
              topic: options.topic,
              partitions: live.map((b) => b.partition),
              offsets: live.map((b) => b.messages[0]!.offset),
              attempt,
              kind,
            },
          );
          await sleep(wait);
          await options.heartbeat().catch(() => undefined);
        }
      }
    } finally {
      this.retrying.delete(retry);
    }
  }
}
