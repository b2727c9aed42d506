import type { Kafka } from 'kafkajs';
import { uniqueName } from './kafka.js';
import { waitFor } from './wait-for.js';

/** A message read back from a topic, headers decoded as UTF-8. */
export interface ReadMessage {
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, string>;
}

/** Reads a topic from its start in a group of its own until `count` messages arrived. */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  count: number,
  timeout = 30_000,
): Promise<ReadMessage[]> {
  const read: ReadMessage[] = [];
  const consumer = kafka.consumer({ groupId: uniqueName('reader') });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: ({ partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {}))
          headers[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
        read.push({
          partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers,
        });
        return Promise.resolve();
      },
    });
    await waitFor(() => read.length >= count, { timeout, what: `${count} messages on ${topic}` });
    return read;
  } finally {
    await consumer.disconnect();
  }
}
