import { createRequire } from 'node:module';
import { kafkaFirst } from './failure-kind.js';
import { classifyKafkaFailure, KafkaTopicError } from './kafka-failure.js';

// kafkajs's own constructors: the protocol's error table and its retrier, as the producer and
// consumer use them (not exported by its index).
const require = createRequire(import.meta.url);
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as {
  createErrorFromCode: (code: number) => Error & { type: string; retriable: boolean };
};
const createRetry = require('kafkajs/src/retry/index.js') as (options: {
  retries: number;
  initialRetryTime?: number;
}) => <T>(fn: (bail: (e: Error) => void) => Promise<T>) => Promise<T>;

// The classes kafkajs's index exports, from the module it loads them from (same instances);
// its typings leave some out and narrow the constructors' options.
type ErrorClass = new (message: unknown, options?: unknown, more?: unknown) => Error;
const {
  KafkaJSAggregateError,
  KafkaJSConnectionError,
  KafkaJSCreateTopicError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  KafkaJSRequestTimeoutError,
  KafkaJSSASLAuthenticationError,
} = require('kafkajs/src/errors.js') as Record<
  | 'KafkaJSAggregateError'
  | 'KafkaJSConnectionError'
  | 'KafkaJSCreateTopicError'
  | 'KafkaJSNonRetriableError'
  | 'KafkaJSNumberOfRetriesExceeded'
  | 'KafkaJSProtocolError'
  | 'KafkaJSRequestTimeoutError'
  | 'KafkaJSSASLAuthenticationError',
  ErrorClass
>;

/** The broker's error `code` as kafkajs raises it from a response. */
const broker = (code: number) => createErrorFromCode(code);

/** What kafkajs's retrier rejects with after failing with `error` on every try. */
async function afterRetries(error: Error, retries = 1): Promise<unknown> {
  const retrier = createRetry({ retries, initialRetryTime: 1 });
  return retrier(() => Promise.reject(error)).catch((e: unknown) => e);
}

/** What kafkajs's retrier rejects with when the call bails out with `error` (a non-retriable one). */
async function bailed(error: Error): Promise<unknown> {
  const retrier = createRetry({ retries: 5, initialRetryTime: 1 });
  return retrier((bail) => {
    bail(error);
    return Promise.resolve();
  }).catch((e: unknown) => e);
}

const kindOf = (error: unknown) => classifyKafkaFailure(error)?.kind ?? null;

describe('classifyKafkaFailure: what retrying can do, by what the broker said', () => {
  it.each([
    ['MESSAGE_TOO_LARGE', 10],
    ['CORRUPT_MESSAGE', 2],
    ['RECORD_LIST_TOO_LARGE', 18],
    ['INVALID_TIMESTAMP', 32],
    ['INVALID_RECORD', 87],
  ])(
    'Given the broker refusing a message with %s (code %i), When classified, Then it is refused (set aside, never retried)',
    async (type, code) => {
      // As the producer sees it: bailed out at once, or given up on after kafkajs's retries.
      for (const error of [
        broker(code).retriable ? await afterRetries(broker(code)) : await bailed(broker(code)),
      ]) {
        const failure = classifyKafkaFailure(error);
        expect(failure).toMatchObject({ kind: 'refused', type });
        expect(failure!.reason).toContain(type);
      }
    },
  );

  it('Given a message-too-large refusal wrapped as the intake sends it, When classified, Then it is refused', () => {
    const error = new KafkaTopicError('ranking.game-results.rejected', 'WRITE', broker(10));
    expect(classifyKafkaFailure(error)).toMatchObject({
      kind: 'refused',
      type: 'MESSAGE_TOO_LARGE',
    });
  });

  it.each([
    ['TOPIC_AUTHORIZATION_FAILED', 29, 'WRITE on the topic'],
    ['GROUP_AUTHORIZATION_FAILED', 30, 'READ on the consumer group'],
    ['CLUSTER_AUTHORIZATION_FAILED', 31, 'IDEMPOTENT_WRITE on the cluster'],
    ['TRANSACTIONAL_ID_AUTHORIZATION_FAILED', 53, 'WRITE on the transactional id'],
    ['INVALID_REQUIRED_ACKS', 21, 'acks'],
    ['SASL_AUTHENTICATION_FAILED', 58, 'SASL credentials'],
  ])(
    'Given the broker refusing a send to a topic with %s (code %i), When classified, Then it is misconfigured, in one line naming the topic and what it needs',
    async (type, code, needs) => {
      const error = new KafkaTopicError(
        'p.ranking.dead-letter',
        'WRITE',
        await bailed(broker(code)),
      );
      const failure = classifyKafkaFailure(error);
      expect(failure).toMatchObject({
        kind: 'misconfigured',
        type,
        resource: 'p.ranking.dead-letter',
      });
      if (failure?.kind !== 'misconfigured') throw new Error('not misconfigured');
      expect(failure.needs).toContain(needs);
      expect(failure.reason).toMatch(
        new RegExp(`^p\\.ranking\\.dead-letter: refused \\(${type}\\)`),
      );
      expect(failure.reason).toContain(needs);
      expect(failure.reason).not.toMatch(/\n/);
    },
  );

  it('Given a topic missing once kafkajs gave up on UNKNOWN_TOPIC_OR_PARTITION, When classified, Then it is misconfigured (topics are never created on the fly); Given it on its own, Then transient (a topic just created)', async () => {
    const given = await afterRetries(broker(3), 2);
    expect(given).toBeInstanceOf(KafkaJSNumberOfRetriesExceeded);
    expect(classifyKafkaFailure(new KafkaTopicError('t', 'WRITE', given))).toMatchObject({
      kind: 'misconfigured',
      type: 'UNKNOWN_TOPIC_OR_PARTITION',
      needs: 'the topic created (`ranking setup`)',
    });
    expect(kindOf(broker(3))).toBe('transient');
  });

  it('Given a wrong password, When classified, Then it is misconfigured', () => {
    const error = new KafkaJSSASLAuthenticationError(
      'SASL SCRAM SHA512 authentication failed: invalid credentials',
    );
    expect(classifyKafkaFailure(error)).toMatchObject({
      kind: 'misconfigured',
      type: 'KafkaJSSASLAuthenticationError',
    });
  });

  it.each([
    ['LEADER_NOT_AVAILABLE', 5],
    ['NOT_LEADER_FOR_PARTITION', 6],
    ['REQUEST_TIMED_OUT', 7],
    ['BROKER_NOT_AVAILABLE', 8],
    ['NETWORK_EXCEPTION', 13],
    ['NOT_COORDINATOR_FOR_GROUP', 16],
    ['NOT_ENOUGH_REPLICAS', 19],
    ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 20],
    ['REBALANCE_IN_PROGRESS', 27],
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', 45],
    ['KAFKA_STORAGE_ERROR', 56],
  ])(
    'Given the broker away or busy with %s (code %i), bare or after kafkajs gave up, When classified, Then it is transient',
    async (_type, code) => {
      expect(kindOf(broker(code))).toBe('transient');
      expect(kindOf(await afterRetries(broker(code)))).toBe('transient');
      expect(kindOf(await bailed(broker(code)))).toBe('transient');
    },
  );

  it('Given the connection refused or a request timing out, bare or after kafkajs gave up, When classified, Then it is transient', async () => {
    const refused = new KafkaJSConnectionError('Connection error: connect ECONNREFUSED', {
      broker: '127.0.0.1:9092',
      code: 'ECONNREFUSED',
    });
    const timeout = new KafkaJSRequestTimeoutError('Request Produce(key: 0, version: 7) timed out');
    for (const error of [
      refused,
      timeout,
      await afterRetries(refused),
      await afterRetries(timeout),
    ])
      expect(kindOf(error)).toBe('transient');
  });

  it('Given a KafkaJSAggregateError holding a refusal, When classified, Then the causes decide', () => {
    const aggregate = new KafkaJSAggregateError('Topic creation errors', [
      new KafkaJSCreateTopicError(broker(29), 'p.ranking.ladder-events'),
    ]);
    expect(classifyKafkaFailure(aggregate)).toMatchObject({
      kind: 'misconfigured',
      resource: 'p.ranking.ladder-events',
    });
  });

  it('Given a refusal and a missing grant in one chain, When classified, Then the grant wins (an operator must act before anything passes)', () => {
    const error = new KafkaJSAggregateError('two partitions refused', [
      new KafkaJSProtocolError(broker(10)),
      broker(29),
    ]);
    expect(kindOf(error)).toBe('misconfigured');
  });

  it('Given an error kafkajs did not raise, When classified, Then null: the consumer decides (database, Redis, our defects)', () => {
    expect(classifyKafkaFailure(new Error('boom'))).toBeNull();
    expect(
      classifyKafkaFailure(Object.assign(new Error('deadlock'), { code: '40P01' })),
    ).toBeNull();
    expect(classifyKafkaFailure('text')).toBeNull();
    const fallback = kafkaFirst(() => 'transient');
    expect(fallback(new Error('boom'))).toBe('transient');
    expect(fallback(broker(10))).toBe('refused');
    expect(kafkaFirst()(new Error('boom'))).toBe('deterministic');
  });

  it('Given a cycle of causes, When classified, Then the walk ends', () => {
    const a = new KafkaJSNonRetriableError('a') as Error & { cause?: unknown };
    const b = new KafkaJSNonRetriableError('b', { cause: a });
    a.cause = b;
    expect(kindOf(a)).toBe('transient');
  });
});
