import { DEAD_LETTER_HEADERS, safeDetail, UNPROCESSABLE } from '@ranking/contracts';
import {
  type BatchHandler,
  type ConsumedMessage,
  errorMessage,
  isKafkaError,
  KAFKA_COMMITTED_OFFSETS,
  OutcomeTally,
} from '@ranking/kafka';
import type { GameResultAdmission } from '@ranking/rating';
import type { Message, Producer } from 'kafkajs';

/** Who set a message aside, in the dead letter's `x-rejected-by`. */
export const INTAKE_CONSUMER = 'intake-service';

/** The topics the intake writes. */
export interface IntakeTopics {
  readonly ladderEvents: string;
  readonly gameResultsRejected: string;
  readonly deadLetter: string;
}

/** A batch's messages sorted by where they go, each list in offset order. */
export interface RoutedBatch {
  /** Admitted events, keyed by their ladder (whatever key they came with), value unchanged. */
  readonly admitted: Message[];
  /** Rejections for the game servers: key and value unchanged, the reason in headers. */
  readonly rejected: Message[];
  readonly outcomes: OutcomeTally;
}

/** Decides every message of a batch (pure: the admission reads nothing but the message). */
export function routeBatch(
  admission: GameResultAdmission,
  messages: readonly ConsumedMessage[],
): RoutedBatch {
  const admitted: Message[] = [];
  const rejected: Message[] = [];
  const outcomes = new OutcomeTally();
  for (const m of messages) {
    const decided = admission.admit(m.value);
    if (decided.admitted) {
      admitted.push({ key: decided.ladder, value: m.value });
      outcomes.add('applied');
    } else {
      rejected.push({
        key: m.key,
        value: m.value,
        headers: {
          [DEAD_LETTER_HEADERS.reason]: decided.rejection.code,
          [DEAD_LETTER_HEADERS.detail]: decided.rejection.detail,
        },
      });
      outcomes.add('rejected', 1, decided.rejection.code);
    }
  }
  return { admitted, rejected, outcomes };
}

/**
 * The intake's part of the consumer protocol. A batch is decided, then sent, admitted events
 * and rejections in one request acknowledged by every in-sync replica; only then does the
 * consumer commit its offsets. Any failure to send is the broker's (away, a leader moving, an
 * ACL an operator must fix): transient, retried until it passes. Only a defect of ours in
 * deciding fails deterministically, and that message is dead-lettered as `unprocessable`.
 */
export function intakeBatchHandler(
  producer: Producer,
  admission: GameResultAdmission,
  topics: IntakeTopics,
): BatchHandler<void> {
  return {
    transaction: (work) => work(undefined),
    checkpoints: KAFKA_COMMITTED_OFFSETS,
    apply: async (_tx, messages) => {
      const { admitted, rejected, outcomes } = routeBatch(admission, messages);
      await producer.sendBatch({
        acks: -1,
        topicMessages: [
          { topic: topics.ladderEvents, messages: admitted },
          { topic: topics.gameResultsRejected, messages: rejected },
        ].filter((t) => t.messages.length > 0),
      });
      return outcomes.list();
    },
    quarantine: async (_tx, message, error) => {
      await producer.send({
        topic: topics.deadLetter,
        acks: -1,
        messages: [
          {
            key: message.key,
            value: message.value,
            headers: {
              [DEAD_LETTER_HEADERS.reason]: UNPROCESSABLE,
              [DEAD_LETTER_HEADERS.detail]: safeDetail(errorMessage(error)),
              [DEAD_LETTER_HEADERS.consumer]: INTAKE_CONSUMER,
            },
          },
        ],
      });
    },
    classify: (error) => (isKafkaError(error) ? 'transient' : 'deterministic'),
  };
}
