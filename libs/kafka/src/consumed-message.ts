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

/** Structured fields of a log line (the JSON logs put them at the top level). */
export type LogFields = Readonly<
  Record<string, string | number | boolean | null | readonly unknown[]>
>;

/** Where the consumer protocol reports (a NestJS `Logger` will do). */
export interface ConsumerLogger {
  log(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** `topic/partition@offset`, the way logs name a message. */
export const messagePlace = (m: ConsumedMessage): string => `${m.topic}/${m.partition}@${m.offset}`;

/** The same as log fields. */
export const messageFields = (m: ConsumedMessage): LogFields => ({
  topic: m.topic,
  partition: m.partition,
  offset: m.offset,
});
