import type { CheckpointStore } from './checkpoint-guard.js';
import type { ConsumedMessage } from './consumed-message.js';
import type { ClassifyFailure } from './failure-kind.js';
import type { OutcomeCount } from './message-outcome.js';

/**
 * What a consumer adds to the shared protocol: its transaction, its checkpoints, how it
 * applies messages, how it sets aside one it cannot apply, and which failures are transient.
 */
export interface BatchHandler<Tx> {
  /** Runs `work` in one transaction (a consumer without one runs it as it is). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  readonly checkpoints: CheckpointStore<Tx>;
  /**
   * Applies messages above their checkpoints, partition after partition, in offset order, and
   * says how they ended (counted once the transaction commits; nothing returned: all applied).
   */
  apply(tx: Tx, messages: readonly ConsumedMessage[]): Promise<readonly OutcomeCount[] | void>;
  /**
   * Sets aside one message that fails on its own with a deterministic error (a defect of ours
   * or a value the store refuses), in the transaction that moves its checkpoint past it: for
   * the services, the dead-letter topic with reason `unprocessable` and `rejected_messages`.
   */
  quarantine(tx: Tx, message: ConsumedMessage, error: unknown): Promise<void>;
  readonly classify: ClassifyFailure;
}
