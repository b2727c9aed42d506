import fc from 'fast-check';
import { batchHalves, messageCount } from './batch-halves.js';
import type { PartitionBatch } from './consumed-message.js';

const batch = (partition: number, from: number, count: number): PartitionBatch => ({
  partition,
  logEnd: BigInt(from + count),
  messages: Array.from({ length: count }, (_, i) => ({
    topic: 't',
    partition,
    offset: String(from + i),
    key: null,
    value: null,
  })),
});
const places = (batches: readonly PartitionBatch[]) =>
  batches.flatMap((b) => b.messages.map((m) => `${m.partition}@${m.offset}`));

describe('batchHalves', () => {
  it('given one partition of five messages, when halved, then the first half has three', () => {
    const [first, second] = batchHalves([batch(0, 10, 5)]);
    expect(places(first)).toEqual(['0@10', '0@11', '0@12']);
    expect(places(second)).toEqual(['0@13', '0@14']);
  });

  it('given two partitions, when halved on their boundary, then neither is cut', () => {
    const [first, second] = batchHalves([batch(1, 0, 2), batch(3, 7, 2)]);
    expect(first.map((b) => b.partition)).toEqual([1]);
    expect(second.map((b) => b.partition)).toEqual([3]);
  });

  it('given a partition that straddles the middle, then it is in both halves, in order', () => {
    const [first, second] = batchHalves([batch(0, 0, 1), batch(2, 0, 4)]);
    expect(places(first)).toEqual(['0@0', '2@0', '2@1']);
    expect(places(second)).toEqual(['2@2', '2@3']);
    expect(second[0]!.logEnd).toBe(4n);
  });

  it('keeps every message once, in order, with both halves non-empty when there are two or more', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 5 }), (sizes) => {
        const batches = sizes.map((n, p) => batch(p, 100 * p, n));
        const [first, second] = batchHalves(batches);
        expect([...places(first), ...places(second)]).toEqual(places(batches));
        const total = messageCount(batches);
        expect(messageCount(first)).toBe(Math.ceil(total / 2));
        if (total >= 2) expect(messageCount(second)).toBeGreaterThan(0);
        expect([...first, ...second].every((b) => b.messages.length > 0)).toBe(true);
      }),
    );
  });
});
