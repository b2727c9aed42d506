import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';

/** A message as it lies on a topic, with its place. */
export interface PlacedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly message: KafkaMessage;
}

/** Each partition's end (the high watermark), by partition. */
export async function topicEnds(kafka: Kafka, topic: string): Promise<Map<number, bigint>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
  } finally {
    await admin.disconnect();
  }
}

/**
 * Reads topics from given offsets on (a group of its own under `groupPrefix`, which commits
 * nothing, so nothing is left behind but an empty group the broker forgets). Every message at
 * or after `from` goes to `onMessage`, each once; `stop` leaves the group.
 */
export class TopicTail {
  private readonly consumer;
  private readonly seen = new Map<string, bigint>();

  constructor(
    kafka: Kafka,
    groupPrefix: string,
    private readonly from: ReadonlyMap<string, ReadonlyMap<number, bigint>>,
    private readonly onMessage: (m: PlacedMessage) => void,
  ) {
    // A group of this run alone: two runs in one group would split the partitions between them.
    this.consumer = kafka.consumer({
      groupId: `${groupPrefix}-${randomUUID()}`,
      maxWaitTimeInMs: 100,
      allowAutoTopicCreation: false,
    });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.from.keys()], fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: ({ topic, partition, message }) => {
        const offset = BigInt(message.offset);
        const start = this.from.get(topic)?.get(partition) ?? 0n;
        const place = `${topic}|${partition}`;
        // A refetch may deliver a message twice; what lies before `from` is not wanted.
        if (offset >= start && offset > (this.seen.get(place) ?? -1n)) {
          this.seen.set(place, offset);
          this.onMessage({ topic, partition, message });
        }
        return Promise.resolve();
      },
    });
    // Start where asked rather than at the beginning (the filter above covers a fetch made
    // before the seeks take effect).
    for (const [topic, partitions] of this.from)
      for (const [partition, offset] of partitions)
        if (offset > 0n) this.consumer.seek({ topic, partition, offset: String(offset) });
  }

  /** The newest offset delivered of a partition, or -1. */
  reached(topic: string, partition: number): bigint {
    return this.seen.get(`${topic}|${partition}`) ?? -1n;
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

/**
 * Every message of `topic` from the start of its log up to its end as it is when called,
 * failing after `timeoutMs` with a line that says what was not read.
 */
export async function readWholeTopic(
  kafka: Kafka,
  topic: string,
  groupPrefix: string,
  timeoutMs: number,
): Promise<PlacedMessage[]> {
  const admin = kafka.admin();
  await admin.connect();
  let bounds: { partition: number; low: bigint; high: bigint }[];
  try {
    bounds = (await admin.fetchTopicOffsets(topic)).map((o) => ({
      partition: o.partition,
      low: BigInt(o.low),
      high: BigInt(o.high),
    }));
  } finally {
    await admin.disconnect();
  }
  const ends = new Map(bounds.map((b) => [b.partition, b.high]));
  const read: PlacedMessage[] = [];
  // A partition is read once its last message came, or when it holds none (the low watermark
  // may be past 0: retention).
  const complete = (tail?: TopicTail) =>
    bounds.every(
      (b) =>
        b.high === b.low || (tail !== undefined && tail.reached(topic, b.partition) >= b.high - 1n),
    );
  if (complete()) return read;
  const tail = new TopicTail(kafka, groupPrefix, new Map([[topic, new Map()]]), (m) => {
    if (BigInt(m.message.offset) < (ends.get(m.partition) ?? 0n)) read.push(m);
  });
  await tail.start();
  try {
    const deadline = Date.now() + timeoutMs;
    while (!complete(tail)) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out after ${Math.round(timeoutMs / 1000)} s reading ${topic} to its end (${read.length} messages read)`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await tail.stop();
  }
  return read;
}
