import kafkajs from 'kafkajs';
import { classifyKafkaFailure, errorChain } from './kafka-failure.js';

/**
 * What retrying a failed batch can do. `transient`: the database or broker is away or busy
 * (retried for as long as it takes, never dead-lettered). `deterministic`: the same input
 * fails the same way again, so after a few tries the batch is split until the one message
 * that fails alone is found and set aside. `refused`: the broker's final "no" to a message's
 * bytes (too large, an invalid record): the batch is split at once and the message set aside
 * with the broker's reason, never retried as it is. `misconfigured`: a grant or a topic is
 * missing: retried slowly (an operator can fix it), readiness saying at once what is missing.
 */
export type FailureKind = 'transient' | 'deterministic' | 'refused' | 'misconfigured';

export type ClassifyFailure = (error: unknown) => FailureKind;

/**
 * A consumer's classification: a Kafka failure by what the broker said (classifyKafkaFailure),
 * anything else by the consumer's own `otherwise` (e.g. PostgreSQL's classifyFailure; by
 * default, a failure that is not Kafka's is a defect of ours: deterministic).
 */
export const kafkaFirst =
  (otherwise: ClassifyFailure = () => 'deterministic'): ClassifyFailure =>
  (error) =>
    classifyKafkaFailure(error)?.kind ?? otherwise(error);

/** Whether kafkajs raised the error or anything it wraps (the broker or the client failed). */
export const isKafkaError = (error: unknown): boolean =>
  errorChain(error).some((e) => e instanceof kafkajs.KafkaJSError);

/** An error's message, whatever was thrown. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * What readiness and the retry log say of a failure: for a missing grant or topic, the one line
 * that names it; otherwise the error's message.
 */
export const failureReason = (error: unknown): string => {
  const kafka = classifyKafkaFailure(error);
  return kafka?.kind === 'misconfigured' ? kafka.reason : errorMessage(error);
};
