import { producerRejectionTopic, producerTopic, TOPICS } from '@ranking/contracts';
import type { Admin, ITopicConfig, Kafka } from 'kafkajs';
import { type KafkaConnection, kafkaClient, type KafkaLogLevel } from './kafka-client.js';

/**
 * The contract's shared topic names under a prefix ('' in production; tests use their own). The
 * intake's topics are each producer's (`producerTopicNames`, ADR 39).
 */
export const topicNames = (prefix = '') => ({
  ladderEvents: `${prefix}${TOPICS.ladderEvents}`,
  ratingChanges: `${prefix}${TOPICS.ratingChanges}`,
  deadLetter: `${prefix}${TOPICS.deadLetter}`,
});

/** A producer's two topics: the one it writes, and its rejections (read by it alone). */
export const producerTopicNames = (producer: string, prefix = '') => ({
  intake: producerTopic(producer, prefix),
  rejections: producerRejectionTopic(producer, prefix),
});

/** The prefix every producer's intake topic (and rejection topic) begins with. */
export const producerTopicPrefix = (prefix = '') => `${prefix}${TOPICS.gameResults}.`;
/** The prefix every producer's rejection topic begins with. */
export const producerRejectionTopicPrefix = (prefix = '') =>
  `${prefix}${TOPICS.gameResultsRejected}.`;

/**
 * A producer's topics. The intake's partitions only spread one producer's load (it re-keys
 * every event by its ladder); a game server keys by ladder, and has a few.
 */
export const producerTopicLayout = (producer: string, prefix = ''): ITopicConfig[] => {
  const names = producerTopicNames(producer, prefix);
  return [
    { topic: names.intake, numPartitions: 6 },
    { topic: names.rejections, numPartitions: 1 },
  ];
};

/** The topics of the contract, with their partition counts. Key = ladder id, so 12 partitions spread ladders. */
export const topicLayout = (prefix = ''): ITopicConfig[] => {
  const names = topicNames(prefix);
  return [
    { topic: names.ladderEvents, numPartitions: 12 },
    { topic: names.ratingChanges, numPartitions: 12 },
    { topic: names.deadLetter, numPartitions: 3 },
  ];
};

/** A topic of the contract, by its key in `topicNames`. */
export type TopicKey = keyof ReturnType<typeof topicNames>;

export const TOPIC_LAYOUT: readonly ITopicConfig[] = topicLayout();

/** Creates whichever of the topics is missing and waits for their leaders; returns the ones it created. */
export async function ensureTopics(
  admin: Admin,
  layout: readonly ITopicConfig[] = TOPIC_LAYOUT,
): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = layout.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return [];
  try {
    await admin.createTopics({ topics: [...missing], waitForLeaders: true });
  } catch (error) {
    // A principal without Create on them (every service on the SASL listener) sees only the
    // topics it may describe: missing ones are the admin's to create (`ranking setup`).
    if (/AUTHORIZATION_FAILED|not authorized/i.test(describeError(error)))
      throw new Error(
        `topics ${missing.map((t) => t.topic).join(', ')} are missing or not visible to this principal, which may not create them: run \`ranking setup\` as the admin principal and check the ACLs (${describeError(error)})`,
        { cause: error },
      );
    throw error;
  }
  return missing.map((t) => t.topic);
}

/** An error with the broker's error types (kafkajs aggregates one per topic). */
const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const { type, errors } = error as { type?: unknown; errors?: unknown };
  const types = [
    type,
    ...(Array.isArray(errors) ? errors.map((e) => (e as { type?: unknown }).type) : []),
  ].filter((t): t is string => typeof t === 'string');
  return types.length > 0 ? `${[...new Set(types)].join(', ')}: ${error.message}` : error.message;
};

/**
 * A service's Kafka client, once the topics it uses (`uses`, default all of the contract's)
 * under `prefix` exist: it creates missing ones where its principal may.
 */
export async function serviceKafka(
  connection: KafkaConnection | string,
  clientId: string,
  prefix: string,
  level: KafkaLogLevel = 'warn',
  uses?: readonly TopicKey[],
): Promise<Kafka> {
  const kafka = kafkaClient(connection, clientId, level);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const names = uses?.map((key) => topicNames(prefix)[key]);
    const layout = topicLayout(prefix).filter((t) => !names || names.includes(t.topic));
    await ensureTopics(admin, layout);
  } finally {
    await admin.disconnect();
  }
  return kafka;
}
