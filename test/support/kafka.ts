import { randomBytes } from 'node:crypto';
import { kafkaClient } from '@ranking/kafka';
import { TEST_ENV } from './environment.js';

/** A topic and consumer group no other test uses. */
export const uniqueName = (prefix: string): string => `${prefix}-${randomBytes(5).toString('hex')}`;

export const testKafka = (clientId = uniqueName('test')) =>
  kafkaClient(TEST_ENV.kafkaBrokers, clientId);

export async function createTopic(topic: string, numPartitions = 1): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

export async function deleteTopic(topic: string): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [topic] });
  } finally {
    await admin.disconnect();
  }
}
