import type { ServiceGrant, SubmittedEvent } from '@ranking/ingestion';
import type { Kafka, Producer } from 'kafkajs';

/** The header that names the token a message came in with (for the intake's operators). */
export const SUBMITTED_WITH_HEADER = 'x-submitted-with';

/**
 * Writes admitted submissions onto the intake topic (`ranking.game-results`), where the intake
 * service decides them again as it decides every game server's message: HTTP is a second way
 * in, not a second trust boundary. Idempotent with one request in flight, acknowledged by every
 * in-sync replica before the API answers 202.
 */
export class IntakeWriter {
  private readonly producer: Producer;

  constructor(
    kafka: Kafka,
    private readonly topic: string,
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
  async send(events: readonly SubmittedEvent[], grant: ServiceGrant): Promise<void> {
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: events.map((e) => ({
        key: e.ladder,
        value: e.value,
        headers: { [SUBMITTED_WITH_HEADER]: `${grant.service}/${grant.tokenId}` },
      })),
    });
  }
}
