import { TOPICS } from '@ranking/contracts';
import type { Admin, ITopicConfig } from 'kafkajs';

/** The topics of the contract, with their partition counts. Key = ladder id, so 12 partitions spread ladders. */
export const TOPIC_LAYOUT: readonly ITopicConfig[] = [
  { topic: TOPICS.ladderEvents, numPartitions: 12 },
  { topic: TOPICS.ratingChanges, numPartitions: 12 },
  { topic: TOPICS.deadLetter, numPartitions: 3 },
];

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
