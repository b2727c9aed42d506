import type { PartitionBatch } from './consumed-message.js';

export const messageCount = (batches: readonly PartitionBatch[]): number =>
  batches.reduce((n, b) => n + b.messages.length, 0);

/**
 * A failed group of partition batches cut in two by message count (the first half the larger
 * by one at most), each partition's messages staying in offset order: the poison path's
 * bisection step. A partition cut in the middle appears in both halves.
 */
export function batchHalves(
  batches: readonly PartitionBatch[],
): [PartitionBatch[], PartitionBatch[]] {
  let room = Math.ceil(messageCount(batches) / 2);
  const first: PartitionBatch[] = [];
  const second: PartitionBatch[] = [];
  for (const batch of batches) {
    const n = batch.messages.length;
    if (room >= n) {
      if (n > 0) first.push(batch);
      room -= n;
    } else if (room > 0) {
      first.push({ ...batch, messages: batch.messages.slice(0, room) });
      second.push({ ...batch, messages: batch.messages.slice(room) });
      room = 0;
    } else second.push(batch);
  }
  return [first, second];
}
