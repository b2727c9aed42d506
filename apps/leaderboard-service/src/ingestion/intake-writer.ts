import { producerTopic } from '@ranking/contracts';
import type { ServiceGrant, SubmittedEvent } from '@ranking/ingestion';
import type { Kafka, Producer } from 'kafkajs';

/** The header that names the token a message came in with (for the intake's operators). */
export const SUBMITTED_WITH_HEADER = 'x-submitted-with';

/**
 * Writes admitted submissions onto their producer's intake topic
 * (`ranking.game-results.<producer>`, ADR 39), where the intake service decides them again as it
 * decides every message of that producer: HTTP is a second way in, not a second trust boundary.
 * Idempotent with one request in flight, acknowledged by every in-sync replica before the API
 * answers 202.
 */
export class IntakeWriter {
  private readonly producer: Producer;

  constructor(
    kafka: Kafka,
    /** The prefix of the topics' names ('' in production; tests use their own). */
    private readonly topicPrefix: string,
  ) {
    this.producer = kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  /** Keyed by ladder, as a game server keys its messages (the intake re-keys them anyway). */
  async send(
    producer: string,
    events: readonly SubmittedEvent[],
    grant: ServiceGrant,
  ): Promise<void> {
    await this.producer.send({
      topic: producerTopic(producer, this.topicPrefix),
      acks: -1,
      messages: events.map((e) => ({
        key: e.ladder,
        value: e.value,
        headers: { [SUBMITTED_WITH_HEADER]: `${grant.service}/${grant.tokenId}` },
      })),
    });
  }
}
