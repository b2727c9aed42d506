import type { Kafka } from 'kafkajs';
import { uniqueName } from './kafka.js';
import { waitFor } from './wait-for.js';

/** One message as it lies on a topic: the bytes exactly as the broker holds them. */
export interface TopicMessage {
  readonly partition: number;
  readonly offset: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** The end of each partition's log (its high watermark), by partition. */
export async function topicEnds(kafka: Kafka, topic: string): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((o) => [o.partition, Number(o.high)]));
  } finally {
    await admin.disconnect();
  }
}

/**
 * Every message of the topics from the start of their logs up to their ends as they are when
 * called, each partition's in offset order (a consumer group of its own, read and left).
 */
export async function readTopics(
  kafka: Kafka,
  topics: readonly string[],
  { timeout = 30_000 }: { timeout?: number } = {},
): Promise<Map<string, Map<number, TopicMessage[]>>> {
  const ends = new Map<string, Map<number, number>>();
  for (const topic of topics) ends.set(topic, await topicEnds(kafka, topic));
  const read = new Map<string, Map<number, TopicMessage[]>>(
    topics.map((t) => [t, new Map([...ends.get(t)!.keys()].map((p) => [p, []]))]),
  );
  const complete = () =>
    [...ends].every(([topic, byPartition]) =>
      [...byPartition].every(([p, end]) => {
        const got = read.get(topic)!.get(p)!;
        return end === 0 || (got.length > 0 && got[got.length - 1]!.offset >= end - 1);
      }),
    );
  if (complete()) return read;
  const consumer = kafka.consumer({ groupId: uniqueName('topic-reader'), maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...topics], fromBeginning: true });
    await consumer.run({
      eachMessage: ({ topic, partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {}))
          if (value !== undefined)
            headers[name] = Buffer.isBuffer(value) ? value.toString() : String(value);
        const offset = Number(message.offset);
        const got = read.get(topic)!.get(partition)!;
        const last = got[got.length - 1]?.offset ?? -1;
        // A message delivered twice (a refetch) is kept once; what came after the end is left.
        if (offset > last && offset < (ends.get(topic)!.get(partition) ?? 0))
          got.push({
            partition,
            offset,
            key: message.key,
            value: message.value,
            headers,
          });
        return Promise.resolve();
      },
    });
    await waitFor(complete, {
      timeout,
      interval: 50,
      what: `the topics ${topics.join(', ')} to be read`,
    });
  } finally {
    await consumer.disconnect();
  }
  return read;
}
