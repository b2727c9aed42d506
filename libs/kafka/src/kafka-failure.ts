import kafkajs from 'kafkajs';

// kafkajs is CommonJS: Node sees only some of its exports as named ones.
const { KafkaJSError, KafkaJSSASLAuthenticationError, KafkaJSServerDoesNotSupportApiKey } = kafkajs;

/**
 * What retrying a failed Kafka call can do, decided by the broker's error type (the protocol's
 * error code, as kafkajs names it) and kafkajs's `retriable`, never by the error's class name:
 * - `transient`: the broker is away or busy (connection lost, a leader moving, a timeout, not
 *   enough replicas in sync, a rebalance): retrying as it is will pass.
 * - `refused`: the broker's final "no" to a message (too large, an invalid or corrupt record):
 *   the same bytes are refused again, so the message is set aside with the reason, never retried.
 * - `misconfigured`: the deployment lacks something an operator must add (a grant, a topic, a
 *   credential): retried slowly, since an operator can fix it, but the service says so at once,
 *   in one line naming the topic and the grant (ADR 36).
 */
export type KafkaFailure =
  | { readonly kind: 'transient'; readonly type: string | null; readonly reason: string }
  | { readonly kind: 'refused'; readonly type: string; readonly reason: string }
  | {
      readonly kind: 'misconfigured';
      readonly type: string;
      /** The topic (or group) the refused call named, when known. */
      readonly resource: string | null;
      /** The grant or change that would let the call pass. */
      readonly needs: string;
      /** One line for readiness and the log: resource, grant, error type. */
      readonly reason: string;
    };

/** The broker's final refusals of a message's bytes: no retry of the same bytes can pass. */
export const MESSAGE_REFUSALS: ReadonlySet<string> = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  // kafkajs marks it retriable (a CRC spoilt on the wire) and retries it itself; once those
  // retries ran out, it is the record.
  'CORRUPT_MESSAGE',
  'INVALID_TIMESTAMP',
]);

/**
 * The refusals an operator fixes, with what the call needs. UNKNOWN_TOPIC_OR_PARTITION is one
 * because topics are never created on the fly (`auto.create.topics.enable=false`, and the
 * services may not create them): once kafkajs's own retries ran out, the topic is missing.
 * Each of these is final whatever kafkajs's `retriable` says, once kafkajs gave up on it.
 */
const OPERATOR_FIXES: Readonly<Record<string, string>> = {
  TOPIC_AUTHORIZATION_FAILED: 'WRITE and DESCRIBE on the topic',
  GROUP_AUTHORIZATION_FAILED: 'READ on the consumer group',
  CLUSTER_AUTHORIZATION_FAILED: 'IDEMPOTENT_WRITE on the cluster (or WRITE on a topic)',
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: 'WRITE on the transactional id',
  DELEGATION_TOKEN_AUTHORIZATION_FAILED: 'the delegation token grant',
  SASL_AUTHENTICATION_FAILED: 'valid SASL credentials (KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD)',
  UNSUPPORTED_SASL_MECHANISM: 'a SASL mechanism the listener enables (KAFKA_SASL_MECHANISM)',
  ILLEGAL_SASL_STATE: 'a listener that speaks SASL (KAFKA_BROKERS)',
  UNKNOWN_TOPIC_OR_PARTITION: 'the topic created (`ranking setup`)',
  INVALID_TOPIC_EXCEPTION: 'a valid topic name (KAFKA_TOPIC_PREFIX)',
  INVALID_REQUIRED_ACKS: 'a producer acks setting the broker accepts',
  UNSUPPORTED_VERSION: 'a broker that speaks this request version',
  UNSUPPORTED_COMPRESSION_TYPE: 'a compression the topic accepts',
  UNSUPPORTED_FOR_MESSAGE_FORMAT: 'a topic message format of v2 (Kafka 0.11 or later)',
  POLICY_VIOLATION: 'a request the broker policy allows',
  SECURITY_DISABLED: 'security enabled on the broker',
};

/** The operation each grant is asked for, when the caller said what it did. */
const OPERATION_NEEDS: Readonly<Record<string, string>> = {
  WRITE: 'WRITE on the topic',
  READ: 'READ on the topic',
  DESCRIBE: 'DESCRIBE on the topic',
};

/**
 * An error of a call on one topic, carrying the topic and the ACL operation the call needs, so
 * that a refusal names them (kafkajs's errors do not say which topic of a request was refused).
 */
export class KafkaTopicError extends Error {
  constructor(
    readonly topic: string,
    readonly operation: 'WRITE' | 'READ' | 'DESCRIBE',
    override readonly cause: unknown,
  ) {
    super(`${operation} on ${topic}: ${describeError(cause)}`, { cause });
    this.name = 'KafkaTopicError';
  }
}

type Walked = {
  readonly type?: unknown;
  readonly retriable?: unknown;
  readonly topic?: unknown;
  readonly groupId?: unknown;
  readonly operation?: unknown;
  readonly message?: unknown;
};

/**
 * The error and everything it wraps: kafkajs's KafkaJSNonRetriableError and
 * KafkaJSNumberOfRetriesExceeded (`cause`), KafkaJSAggregateError (`errors`), ours (`cause`).
 * Bounded: a cycle of causes ends the walk.
 */
export function errorChain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.length < 32) {
    const e = queue.shift();
    if (e === null || e === undefined || seen.includes(e)) continue;
    seen.push(e);
    if (typeof e !== 'object') continue;
    const { cause, errors } = e as { cause?: unknown; errors?: unknown };
    if (cause !== undefined) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return seen;
}

const typeOf = (e: unknown): string | null => {
  const type = (e as Walked | null)?.type;
  return typeof type === 'string' ? type : null;
};

/** The first string a field holds along the chain. */
const firstString = (chain: readonly unknown[], field: keyof Walked): string | null => {
  for (const e of chain) {
    const v = (e as Walked | null)?.[field];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return null;
};

const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * What retrying the failed call can do, or null when nothing along the error's chain comes
 * from kafkajs (a database's or our own error: the caller's classification decides). Pure.
 */
export function classifyKafkaFailure(error: unknown): KafkaFailure | null {
  const chain = errorChain(error);
  if (!chain.some((e) => e instanceof KafkaJSError)) return null;
  const message = describeError(error);
  const types = chain.map(typeOf).filter((t): t is string => t !== null);
  // kafkajs retries what it marks retriable and wraps it in a non-retriable error once its
  // retries ran out (KafkaJSNumberOfRetriesExceeded). An outermost error still retriable has
  // not been given up on: a leader moving, a topic just created (UNKNOWN_TOPIC_OR_PARTITION
  // for a moment), a CRC spoilt on the wire.
  const outermost = chain.find((e) => e instanceof KafkaJSError) as { retriable?: unknown };
  if (outermost.retriable !== false)
    return { kind: 'transient', type: types[0] ?? null, reason: oneLine(message) };

  const fix = types.find((t) => t in OPERATOR_FIXES);
  const authentication = chain.find(
    (e) =>
      e instanceof KafkaJSSASLAuthenticationError || e instanceof KafkaJSServerDoesNotSupportApiKey,
  );
  if (fix !== undefined || authentication !== undefined) {
    const type = fix ?? (authentication as Error).name;
    const resource = firstString(chain, 'topic') ?? firstString(chain, 'groupId');
    const operation = firstString(chain, 'operation');
    const needs =
      (type === 'TOPIC_AUTHORIZATION_FAILED' && operation !== null && OPERATION_NEEDS[operation]) ||
      OPERATOR_FIXES[type] ||
      'valid SASL credentials and a broker that supports the client';
    const where = resource === null ? 'the broker' : resource;
    return {
      kind: 'misconfigured',
      type,
      resource,
      needs,
      reason: oneLine(
        `${where}: refused (${type}); this principal needs ${needs}; an operator must grant it (ranking setup, kafka-acls); retrying slowly meanwhile`,
      ),
    };
  }

  const refusal = types.find((t) => MESSAGE_REFUSALS.has(t));
  if (refusal !== undefined)
    return { kind: 'refused', type: refusal, reason: oneLine(`${refusal}: ${message}`) };

  // Whatever else the broker or the client says is about their state, not the message: a
  // connection, a leader, a coordinator, a rebalance, a producer's epoch or sequence (kafkajs
  // marks some of these non-retriable for one request, yet the next request after its reset
  // passes). Retried for as long as it lasts, and visible in readiness meanwhile.
  return { kind: 'transient', type: types[0] ?? null, reason: oneLine(message) };
}

/** Readiness and log lines hold one line each. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
