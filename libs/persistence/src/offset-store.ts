import type { Sql } from './sql.js';

/**
 * Consumer checkpoints kept in the same transaction as what the messages changed: the next
 * offset to read per topic partition. Kafka's own commits are only a hint.
 */
export class OffsetStore {
  constructor(private readonly sql: Sql) {}

  /** One consumer's checkpoints of one topic in the shape of the consumer protocol's store. */
  static checkpointsOf(consumer: string, topic: string) {
    return {
      lock: (sql: Sql, logEnds: ReadonlyMap<number, bigint | undefined>) =>
        new OffsetStore(sql).lockManyWithin(consumer, topic, logEnds),
      save: (sql: Sql, next: ReadonlyMap<number, bigint>) =>
        new OffsetStore(sql).saveMany(consumer, topic, next),
      all: (sql: Sql) => new OffsetStore(sql).all(consumer, topic),
    };
  }

  /**
   * Locks and returns each partition's next offset (null when nothing was ever stored), in
   * partition order, checked against the end of the partition's log as the broker reported it
   * with the batch (its high watermark). A checkpoint beyond that end belongs to a log that is
   * gone (the topic was recreated, the broker started empty): then the partition is read from
   * its start again, which is safe because events already stored are known by id, and loud,
   * never a silent skip of everything the new log holds.
   */
  async lockManyWithin(
    consumer: string,
    topic: string,
    logEnds: ReadonlyMap<number, bigint | undefined>,
  ): Promise<Map<number, { stored: bigint | null; logRecreated: boolean }>> {
    const partitions = [...logEnds.keys()].sort((a, b) => a - b);
    const rows = await this.sql.query<{ partition: number; next_offset: string }>(
      `SELECT partition, next_offset FROM consumer_offsets
       WHERE consumer = $1 AND topic = $2 AND partition = ANY($3::int[])
       ORDER BY partition FOR UPDATE`,
      [consumer, topic, partitions],
    );
    const found = new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)]));
    return new Map(
      partitions.map((partition) => {
        const stored = found.get(partition) ?? null;
        const logEnd = logEnds.get(partition);
        return [
          partition,
          stored !== null && logEnd !== undefined && stored > logEnd
            ? { stored: null, logRecreated: true }
            : { stored, logRecreated: false },
        ];
      }),
    );
  }

  /** Moves the partitions' next offsets, in one statement. */
  async saveMany(
    consumer: string,
    topic: string,
    next: ReadonlyMap<number, bigint>,
  ): Promise<void> {
    if (next.size === 0) return;
    const partitions = [...next.keys()].sort((a, b) => a - b);
    await this.sql.query(
      `INSERT INTO consumer_offsets (consumer, topic, partition, next_offset)
       SELECT $1, $2, p, o FROM unnest($3::int[], $4::bigint[]) AS t(p, o)
       ON CONFLICT (consumer, topic, partition) DO UPDATE SET next_offset = EXCLUDED.next_offset`,
      [consumer, topic, partitions, partitions.map((p) => next.get(p)!.toString())],
    );
  }

  async all(consumer: string, topic: string): Promise<Map<number, bigint>> {
    const rows = await this.sql.query<{ partition: number; next_offset: string }>(
      'SELECT partition, next_offset FROM consumer_offsets WHERE consumer = $1 AND topic = $2',
      [consumer, topic],
    );
    return new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)]));
  }
}
