import { TOPICS } from '@ranking/contracts';
import type { Admin, ITopicConfig, Kafka } from 'kafkajs';
import { kafkaClient, type KafkaLogLevel } from './kafka-client.js';

/** The contract's topic names under a prefix ('' in production; tests use their own). */
export const topicNames = (prefix = '') => ({
  ladderEvents: `${prefix}${TOPICS.ladderEvents}`,
  ratingChanges: `${prefix}${TOPICS.ratingChanges}`,
  deadLetter: `${prefix}${TOPICS.deadLetter}`,
});

/** The topics of the contract, with their partition counts. Key = ladder id, so 12 partitions spread ladders. */
export const topicLayout = (prefix = ''): ITopicConfig[] => {
  const names = topicNames(prefix);
  return [
    { topic: names.ladderEvents, numPartitions: 12 },
    { topic: names.ratingChanges, numPartitions: 12 },
    { topic: names.deadLetter, numPartitions: 3 },
  ];
};

export const TOPIC_LAYOUT: readonly ITopicConfig[] = topicLayout();

/** Creates whichever of the topics is missing and waits for their leaders; returns the ones it created. */
export async function ensureTopics(
  admin: Admin,
  layout: readonly ITopicConfig[] = TOPIC_LAYOUT,
): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = layout.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return [];
  await admin.createTopics({ topics: [...missing], waitForLeaders: true });
  return missing.map((t) => t.topic);
}

/** A service's Kafka client, once the contract's topics under `prefix` exist. */
export async function serviceKafka(
  brokers: string,
  clientId: string,
  prefix: string,
  level: KafkaLogLevel = 'warn',
): Promise<Kafka> {
  const kafka = kafkaClient(brokers, clientId, level);
  const admin = kafka.admin();
  await admin.connect();
  try {
    await ensureTopics(admin, topicLayout(prefix));
  } finally {
    await admin.disconnect();
  }
  return kafka;
}
