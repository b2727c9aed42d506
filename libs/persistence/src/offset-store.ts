import type { Sql } from './sql.js';

/**
 * Consumer checkpoints kept in the same transaction as what the messages changed: the next
 * offset to read per topic partition. Kafka's own commits are only a hint.
 */
export class OffsetStore {
  constructor(private readonly sql: Sql) {}

  /** Locks and returns the partition's next offset (null when nothing was ever stored). */
  async lock(consumer: string, topic: string, partition: number): Promise<bigint | null> {
    const rows = await this.sql.query<{ next_offset: string }>(
      'SELECT next_offset FROM consumer_offsets WHERE consumer = $1 AND topic = $2 AND partition = $3 FOR UPDATE',
      [consumer, topic, partition],
    );
    return rows[0] ? BigInt(rows[0].next_offset) : null;
  }

  async save(
    consumer: string,
    topic: string,
    partition: number,
    nextOffset: bigint,
  ): Promise<void> {
    await this.sql.query(
      `INSERT INTO consumer_offsets (consumer, topic, partition, next_offset) VALUES ($1, $2, $3, $4)
       ON CONFLICT (consumer, topic, partition) DO UPDATE SET next_offset = EXCLUDED.next_offset`,
      [consumer, topic, partition, nextOffset.toString()],
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
