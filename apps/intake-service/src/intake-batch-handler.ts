import { DEAD_LETTER_HEADERS, type Producer, safeDetail, UNPROCESSABLE } from '@ranking/contracts';
import {
  type BatchHandler,
  type ConsumedMessage,
  errorMessage,
  KAFKA_COMMITTED_OFFSETS,
  kafkaFirst,
  messagePlace,
  OutcomeTally,
  rejectionCopy,
  sendSized,
} from '@ranking/kafka';
import type { GameResultAdmission } from '@ranking/rating';
import type { Message, Producer as KafkaProducer } from 'kafkajs';

/** Who set a message aside, in the dead letter's `x-rejected-by`. */
export const INTAKE_CONSUMER = 'intake-service';

/** The topics the intake writes for one producer. */
export interface IntakeTopics {
  readonly ladderEvents: string;
  /** The producer's own rejections (ADR 39): no other producer reads them. */
  readonly rejections: string;
  readonly deadLetter: string;
}

/** A batch's messages sorted by where they go, each list in offset order. */
export interface RoutedBatch {
  /** Admitted events, keyed by their ladder (whatever key they came with), value unchanged. */
  readonly admitted: Message[];
  /**
   * Rejections for the game servers: key and value unchanged, the reason in headers; a key or
   * value over 65,536 bytes cut to that, its length and hash in headers (rejectionCopy).
   */
  readonly rejected: Message[];
  readonly outcomes: OutcomeTally;
  /** Where each message sent came from (`topic/partition@offset`, messagePlace). */
  readonly sources: ReadonlyMap<Message, string>;
}

/**
 * Decides every message of a batch of the producer's topic (pure: the admission reads nothing
 * but the message and the producer, whose topic it came on).
 */
export function routeBatch(
  admission: GameResultAdmission,
  producer: Producer,
  messages: readonly ConsumedMessage[],
): RoutedBatch {
  const admitted: Message[] = [];
  const rejected: Message[] = [];
  const outcomes = new OutcomeTally();
  const sources = new Map<Message, string>();
  for (const m of messages) {
    const decided = admission.admit(m.value, producer);
    let out: Message;
    if (decided.admitted) {
      admitted.push((out = { key: decided.ladder, value: m.value }));
      outcomes.add('applied');
    } else {
      rejected.push(
        (out = rejectionCopy(m.key, m.value, {
          [DEAD_LETTER_HEADERS.reason]: decided.rejection.code,
          [DEAD_LETTER_HEADERS.detail]: decided.rejection.detail,
        })),
      );
      outcomes.add('rejected', 1, decided.rejection.code);
    }
    sources.set(out, messagePlace(m));
  }
  return { admitted, rejected, outcomes, sources };
}

/**
 * The intake's part of the consumer protocol. A batch is decided, then sent: admitted events,
 * then rejections, each topic in requests small enough for the broker's limit (sendSized),
 * every one acknowledged by every in-sync replica; only then does the consumer commit its
 * offsets. A failure to send is classified by what the broker said (ADR 36): away or busy is
 * transient, retried until it passes; a missing grant or topic is retried slowly, readiness
 * naming the topic and the grant; a final refusal of a message's bytes splits the batch until
 * that message is dead-lettered with the broker's reason. A defect of ours in deciding fails
 * deterministically, and that message is dead-lettered as `unprocessable` too.
 */
export function intakeBatchHandler(
  sender: KafkaProducer,
  admission: GameResultAdmission,
  topics: IntakeTopics,
  /** The producer as the registry says now: its ladders may change while it runs. */
  producer: () => Producer,
): BatchHandler<void> {
  /**
   * Messages whose output the broker acknowledged in an attempt that then failed (the ladder log
   * written, the rejection topic refused): a retry sends only the rest, so a grant missing for
   * an hour does not write a batch's games to the ladder log at every retry. Forgotten once the
   * batch passes; a restart forgets all (at least once, as before).
   */
  const acknowledged = new Set<string>();
  return {
    transaction: (work) => work(undefined),
    checkpoints: KAFKA_COMMITTED_OFFSETS,
    apply: async (_tx, messages) => {
      const { admitted, rejected, outcomes, sources } = routeBatch(admission, producer(), messages);
      const unsent = (list: Message[]) => list.filter((m) => !acknowledged.has(sources.get(m)!));
      const sent = (run: readonly Message[]) => {
        for (const m of run) acknowledged.add(sources.get(m)!);
      };
      await sendSized(sender, topics.ladderEvents, unsent(admitted), sent);
      await sendSized(sender, topics.rejections, unsent(rejected), sent);
      for (const m of messages) acknowledged.delete(messagePlace(m));
      // Partitions lost while failing leave theirs: bounded, never more than a few batches.
      if (acknowledged.size > 100_000) acknowledged.clear();
      return outcomes.list();
    },
    quarantine: async (_tx, message, error) => {
      await sendSized(sender, topics.deadLetter, [
        rejectionCopy(message.key, message.value, {
          [DEAD_LETTER_HEADERS.reason]: UNPROCESSABLE,
          [DEAD_LETTER_HEADERS.detail]: safeDetail(errorMessage(error)),
          [DEAD_LETTER_HEADERS.consumer]: INTAKE_CONSUMER,
          [DEAD_LETTER_HEADERS.producer]: producer().name,
        }),
      ]);
    },
    // Not Kafka's: a defect of ours in deciding (the admission reads nothing but the message).
    classify: kafkaFirst(),
  };
}
