import type { Environment } from '@ranking/config';
import type { LadderEvent } from '@ranking/contracts';
import { kafkaClient, kafkaConnection, topicNames } from '@ranking/kafka';
import type { Kafka } from 'kafkajs';

/** Where a published event landed. */
export interface Published {
  readonly topic: string;
  readonly partition: number | undefined;
  readonly offset: string | undefined;
}

/**
 * Publishes one ops event (a correction, an annulment) to the ladder-events topic, keyed by its
 * ladder, with the deployment's Kafka credentials: idempotent, acknowledged by every in-sync
 * replica. A retried send may land twice; the event id makes the second one a no-op.
 */
export async function publishLadderEvent(
  env: Environment,
  event: LadderEvent,
  clientId: string,
): Promise<Published> {
  const topic = topicNames(env.KAFKA_TOPIC_PREFIX).ladderEvents;
  const kafka = kafkaClient(kafkaConnection(env), clientId, env.LOG_LEVEL);
  await requireTopic(kafka, topic);
  const producer = kafka.producer({
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    const [sent] = await producer.send({
      topic,
      acks: -1,
      messages: [{ key: event.ladder, value: JSON.stringify(event) }],
    });
    return { topic, partition: sent?.partition, offset: sent?.baseOffset };
  } finally {
    await producer.disconnect();
  }
}

/** Fails at once on a missing topic (the producer alone would retry for about a minute). */
async function requireTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic))
      throw new Error(
        `topic ${topic} does not exist: check KAFKA_TOPIC_PREFIX, or create it with \`ranking setup\``,
      );
  } finally {
    await admin.disconnect();
  }
}
