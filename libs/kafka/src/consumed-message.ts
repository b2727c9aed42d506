/** One message of a partition's batch, as a consumer's handler gets it. */
export interface ConsumedMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
}

/** One partition's messages of a fetch, in offset order. */
export interface PartitionBatch {
  readonly partition: number;
  readonly messages: readonly ConsumedMessage[];
  /**
   * The end of the partition's log when the batch was fetched (its high watermark): a stored
   * checkpoint beyond it means a recreated log. Always known to the consumer; tests may omit it.
   */
  readonly logEnd?: bigint;
}

/** Where the consumer protocol reports (a NestJS `Logger` will do). */
export interface ConsumerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** `topic/partition@offset`, the way logs name a message. */
export const messagePlace = (m: ConsumedMessage): string => `${m.topic}/${m.partition}@${m.offset}`;
