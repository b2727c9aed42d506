import type { Sql } from './sql.js';

/**
 * Gives one consumer the checkpoints of another on a topic: after a rebuild from the event
 * store, a consumer resumes right after what the store holds.
 */
export async function copyCheckpoints(
  sql: Sql,
  from: string,
  to: string,
  topic: string,
): Promise<number> {
  await sql.query('DELETE FROM consumer_offsets WHERE consumer = $1 AND topic = $2', [to, topic]);
  const rows = await sql.query(
    `INSERT INTO consumer_offsets (consumer, topic, partition, next_offset)
     SELECT $2, topic, partition, next_offset FROM consumer_offsets WHERE consumer = $1 AND topic = $3
     RETURNING partition`,
    [from, to, topic],
  );
  return rows.length;
}
