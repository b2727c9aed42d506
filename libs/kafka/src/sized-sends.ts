import type { IHeaders, Message, Producer } from 'kafkajs';
import { KafkaTopicError } from './kafka-failure.js';

/**
 * The most a produce request of ours holds, by our count of its records' bytes. The broker
 * refuses a record batch over `message.max.bytes` (1,048,588 by default; `ranking setup` leaves
 * every topic at it) and kafkajs puts all of a request's messages for one partition in one
 * batch, so a request under this leaves each batch under the limit whatever the partitioner
 * does. 900,000 leaves room for the batch's framing, which recordBytes counts generously.
 */
export const REQUEST_MAX_BYTES = 900_000;

const bytesOf = (v: string | Buffer | null | undefined): number =>
  v === null || v === undefined ? 0 : typeof v === 'string' ? Buffer.byteLength(v) : v.length;

const headerBytes = (headers: IHeaders | undefined): number => {
  let n = 0;
  for (const [name, value] of Object.entries(headers ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) n += Buffer.byteLength(name) + bytesOf(v) + 10;
  }
  return n;
};

/**
 * A record's bytes in a batch, over-counted: key, value, headers, and 32 for the varints and
 * attributes (at most 21 in Kafka's record format v2) and a share of the batch's 61 of framing.
 */
export const recordBytes = (m: Message): number =>
  32 + bytesOf(m.key) + bytesOf(m.value) + headerBytes(m.headers);

/**
 * Messages cut, in order, into runs of at most `maxBytes` by `size` and at most `maxCount`
 * messages; a message over `maxBytes` alone makes a run of its own (the broker decides it).
 */
export function sizedRuns<T>(
  messages: readonly T[],
  size: (m: T) => number,
  maxBytes: number = REQUEST_MAX_BYTES,
  maxCount: number = Infinity,
): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const m of messages) {
    const n = size(m);
    if (run.length > 0 && (bytes + n > maxBytes || run.length >= maxCount)) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(m);
    bytes += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Sends `messages` to `topic` in order, in requests of at most REQUEST_MAX_BYTES, each
 * acknowledged by every in-sync replica before the next (`acknowledged` hears of each). A
 * failure names the topic and the grant it needs (KafkaTopicError), so a refusal can say which.
 */
export async function sendSized(
  producer: Producer,
  topic: string,
  messages: readonly Message[],
  acknowledged?: (run: readonly Message[]) => void,
): Promise<void> {
  for (const run of sizedRuns(messages, recordBytes)) {
    try {
      await producer.send({ topic, acks: -1, messages: run });
    } catch (error) {
      throw new KafkaTopicError(topic, 'WRITE', error);
    }
    acknowledged?.(run);
  }
}
