import type { Kafka, Message, Producer } from 'kafkajs';
import { backoffDelay, MISCONFIGURED_BACKOFF, sleep } from './backoff.js';
import { failureReason } from './failure-kind.js';
import { classifyKafkaFailure, KafkaTopicError } from './kafka-failure.js';
import { recordBytes, sizedRuns } from './sized-sends.js';

/** A message waiting in an outbox, as the relay publishes it. */
export interface OutboxMessage {
  readonly topic: string;
  readonly key: string | Buffer | null;
  readonly value: string | Buffer | null;
  readonly headers?: Record<string, string>;
}

/**
 * One relay round against a service's own outbox table: claims the oldest waiting rows, hands
 * their messages to `publish` and deletes the rows once it resolved, all in one transaction
 * (a failed publish leaves the rows). Returns how many rows it claimed, 0 when none waited.
 */
export type OutboxRound = (
  publish: (messages: readonly OutboxMessage[]) => Promise<void>,
) => Promise<number>;

/** Where the loop reports a failed round (a NestJS `Logger` will do). */
export interface RelayLogger {
  warn(message: string): void;
}

export interface OutboxRelayOptions {
  readonly round: OutboxRound;
  readonly logger: RelayLogger;
  /** A round that claimed at least this many rows is followed at once; fewer, after the idle tick. */
  readonly busyAt: number;
  /** A round that published something took `seconds` (metrics). */
  readonly published?: (rows: number, seconds: number) => void;
}

/**
 * Messages per produce request; sizedRuns also keeps each request under REQUEST_MAX_BYTES, so no
 * partition's record batch reaches the broker's limit however large the messages (dead letters).
 */
const SEND_CHUNK = 1000;
const IDLE_MS = 200;
/** Rounds a stopping relay still runs to publish what the last transactions left. */
const FINAL_ROUNDS = 10;

/**
 * Publishes what the transactions left in an outbox, oldest first, deleting rows only after
 * the broker acknowledged them: at least once, never before the writing transaction committed.
 * Rounds run back to back while busy, otherwise on a commit's `wake()` or the idle tick.
 */
export class OutboxRelayLoop {
  private producer: Producer | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: OutboxRelayOptions,
  ) {}

  async start(): Promise<void> {
    // Idempotent (kafkajs: acks -1, one request in flight per broker): a request kafkajs retries
    // after a lost answer or a leader change is written once per partition, not twice.
    this.producer = this.kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await this.producer.connect();
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Stops the loop, then publishes what the last transactions left (a few rounds at most, so a
   * shutdown stays short; the rest waits for the next start), and disconnects.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    for (let round = 0; round < FINAL_ROUNDS; round++) {
      const sent = await this.relayOnce().catch(() => 0);
      if (sent === 0 || sent < this.options.busyAt) break;
    }
    await this.producer?.disconnect();
  }

  /** Something was just committed: publish now rather than at the next tick. */
  wake(): void {
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let sent = 0;
      try {
        const started = performance.now();
        sent = await this.relayOnce();
        if (sent > 0) this.options.published?.(sent, (performance.now() - started) / 1000);
        failures = 0;
      } catch (error) {
        // The rows stay in order (a rating-changes chain may not skip one): a missing grant or
        // topic is retried slowly and said in one line; anything else as it lasts (ADR 36).
        const kind = classifyKafkaFailure(error)?.kind ?? 'transient';
        const wait =
          kind === 'misconfigured'
            ? backoffDelay(++failures, MISCONFIGURED_BACKOFF)
            : backoffDelay(++failures);
        this.options.logger.warn(
          `outbox relay failed (${kind}, attempt ${failures}), retrying in ${wait} ms: ${failureReason(error)}`,
        );
        await sleep(wait);
        continue;
      }
      if (sent < this.options.busyAt && this.running) {
        await new Promise<void>((resolve) => {
          this.wakeUp = resolve;
          setTimeout(resolve, IDLE_MS);
        });
      }
    }
  }

  /** One round: claim, publish, delete, in one transaction. */
  async relayOnce(): Promise<number> {
    const producer = this.producer;
    if (!producer) return 0;
    return this.options.round((messages) => publish(producer, messages));
  }
}

/** Sends in requests of at most SEND_CHUNK messages and REQUEST_MAX_BYTES, in outbox order. */
async function publish(producer: Producer, messages: readonly OutboxMessage[]): Promise<void> {
  const size = (m: OutboxMessage) =>
    recordBytes({ key: m.key, value: m.value, headers: m.headers });
  for (const run of sizedRuns(messages, size, undefined, SEND_CHUNK)) {
    const byTopic = new Map<string, Message[]>();
    for (const m of run) {
      const list = byTopic.get(m.topic) ?? [];
      list.push({ key: m.key, value: m.value, headers: m.headers });
      byTopic.set(m.topic, list);
    }
    try {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
      });
    } catch (error) {
      // kafkajs does not say which topic of a request was refused: a grant's line names all.
      throw new KafkaTopicError([...byTopic.keys()].join(' or '), 'WRITE', error);
    }
  }
}
