/**
 * What retrying a failed batch can do. `transient`: the database or broker is away or busy
 * (retried for as long as it takes, never dead-lettered). `deterministic`: the same input
 * fails the same way again, so after a few tries the batch is split until the one message
 * that fails alone is found and set aside.
 */
export type FailureKind = 'transient' | 'deterministic';

export type ClassifyFailure = (error: unknown) => FailureKind;

/** Whether the broker failed (kafkajs's errors all descend from KafkaJSError), not the message. */
export const isKafkaError = (error: unknown): boolean =>
  error instanceof Error && error.name.startsWith('KafkaJS');

/** An error's message, whatever was thrown. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
