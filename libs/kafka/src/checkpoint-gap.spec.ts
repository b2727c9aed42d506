import type { BatchHandler } from './batch-handler.js';
import { BatchSettler, GAP_REWINDS } from './batch-settler.js';
import {
  applyAboveCheckpoints,
  type CheckpointGap,
  CheckpointGapError,
  type CheckpointStore,
} from './checkpoint-guard.js';
import type { PartitionBatch } from './consumed-message.js';
import { kafkaFirst } from './failure-kind.js';

/**
 * The checkpoint guard when the store is behind what the consumer fetched (ADR 38): the store
 * lost commits (a standby promoted without them), the consumer's position did not. A store of
 * checkpoints in memory, transactional as PostgreSQL's: the work's effects and the checkpoints
 * commit together or not at all.
 */
class MemoryStore {
  checkpoints = new Map<number, bigint>();
  applied: string[] = [];

  handler(): BatchHandler<{ checkpoints: Map<number, bigint>; applied: string[] }> {
    type Tx = { checkpoints: Map<number, bigint>; applied: string[] };
    const checkpoints: CheckpointStore<Tx> = {
      lock: (tx, ends) =>
        Promise.resolve(
          new Map(
            [...ends.keys()].map((p) => [
              p,
              { stored: tx.checkpoints.get(p) ?? null, logRecreated: false },
            ]),
          ),
        ),
      save: (tx, next) => {
        for (const [p, o] of next) tx.checkpoints.set(p, o);
        return Promise.resolve();
      },
      all: (tx) => Promise.resolve(new Map(tx.checkpoints)),
    };
    return {
      transaction: async (work) => {
        const tx: Tx = { checkpoints: new Map(this.checkpoints), applied: [...this.applied] };
        const result = await work(tx);
        this.checkpoints = tx.checkpoints;
        this.applied = tx.applied;
        return result;
      },
      checkpoints,
      apply: (tx, messages) => {
        tx.applied.push(...messages.map((m) => `${m.partition}@${m.offset}`));
        return Promise.resolve();
      },
      quarantine: () => Promise.resolve(),
      classify: kafkaFirst(),
    };
  }
}

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
const batch = (partition: number, from: number, to: number): PartitionBatch => ({
  partition,
  messages: Array.from({ length: to - from + 1 }, (_, i) => ({
    topic: 't',
    partition,
    offset: String(from + i),
    key: null,
    value: Buffer.from('m'),
  })),
});

describe('the checkpoint guard and a store that lost commits', () => {
  it('Given a stored checkpoint of 10, When a batch begins at 15, Then nothing is applied, no checkpoint moves, and the gap is named', async () => {
    const store = new MemoryStore();
    store.checkpoints.set(0, 10n);
    const h = store.handler();
    const run = h.transaction((tx) =>
      applyAboveCheckpoints(tx, h.checkpoints, [batch(0, 15, 20)], (t, fresh) => h.apply(t, fresh)),
    );
    await expect(run).rejects.toBeInstanceOf(CheckpointGapError);
    await expect(run).rejects.toMatchObject({
      gaps: [{ partition: 0, stored: 10n, fetched: 15n }],
    });
    expect(store.applied).toEqual([]);
    expect(store.checkpoints.get(0)).toBe(10n);
  });

  it('Given batches at or below the checkpoint, or no checkpoint, When applied, Then there is no gap (redelivery and a first read)', async () => {
    const store = new MemoryStore();
    store.checkpoints.set(0, 10n);
    const h = store.handler();
    await h.transaction((tx) =>
      applyAboveCheckpoints(tx, h.checkpoints, [batch(0, 8, 12), batch(1, 40, 41)], (t, fresh) =>
        h.apply(t, fresh),
      ),
    );
    expect(store.applied).toEqual(['0@10', '0@11', '0@12', '1@40', '1@41']);
    expect(store.checkpoints).toEqual(
      new Map([
        [0, 13n],
        [1, 42n],
      ]),
    );
  });

  it('Given a group where one partition is past a gap, When settled, Then that partition is rewound to its checkpoint and left unsettled, and the others commit', async () => {
    const store = new MemoryStore();
    store.checkpoints.set(0, 10n);
    store.checkpoints.set(1, 5n);
    const rewinds: [number, bigint][] = [];
    const settler = new BatchSettler(store.handler(), {
      topic: 't',
      logger: quiet,
      holds: () => true,
      heartbeat: () => Promise.resolve(),
      rewind: (p, o) => rewinds.push([p, o]),
    });
    const settled = await settler.settle([batch(0, 15, 16), batch(1, 5, 6)]);
    expect([...settled]).toEqual([1]);
    expect(rewinds).toEqual([[0, 10n]]);
    expect(store.applied).toEqual(['1@5', '1@6']);
    expect(store.checkpoints.get(0)).toBe(10n);

    // The partition read again from its checkpoint: applied in full, nothing stepped over.
    expect([...(await settler.settle([batch(0, 10, 16)]))]).toEqual([0]);
    expect(store.applied.filter((m) => m.startsWith('0@'))).toEqual(
      ['10', '11', '12', '13', '14', '15', '16'].map((o) => `0@${o}`),
    );
    expect(store.checkpoints.get(0)).toBe(17n);
  });

  it(`Given the same gap fetched again ${GAP_REWINDS} times after rewinding (offsets gone from the log), When settled once more, Then it goes on from the first offset the log has`, async () => {
    const store = new MemoryStore();
    store.checkpoints.set(0, 10n);
    const rewinds: [number, bigint][] = [];
    const errors: string[] = [];
    const settler = new BatchSettler(store.handler(), {
      topic: 't',
      logger: { ...quiet, error: (m: string) => errors.push(m) },
      holds: () => true,
      heartbeat: () => Promise.resolve(),
      rewind: (p, o) => rewinds.push([p, o]),
    });
    for (let i = 0; i < GAP_REWINDS; i++)
      expect([...(await settler.settle([batch(0, 15, 16)]))]).toEqual([]);
    expect(rewinds).toHaveLength(GAP_REWINDS);
    expect([...(await settler.settle([batch(0, 15, 16)]))]).toEqual([0]);
    expect(store.applied).toEqual(['0@15', '0@16']);
    expect(errors.at(-1)).toMatch(/offsets 10 to 14 are not in the log any more/);
  });

  it('Given a gap that moves (a stale batch, then another), When settled, Then each is rewound and none is taken as gone', async () => {
    const store = new MemoryStore();
    store.checkpoints.set(0, 10n);
    const gaps: CheckpointGap[] = [];
    const settler = new BatchSettler(store.handler(), {
      topic: 't',
      logger: quiet,
      holds: () => true,
      heartbeat: () => Promise.resolve(),
      rewind: (partition, stored) => gaps.push({ partition, stored, fetched: 0n }),
    });
    for (const from of [15, 17, 15, 19, 15, 21])
      expect([...(await settler.settle([batch(0, from, from + 1)]))]).toEqual([]);
    expect(gaps).toHaveLength(6);
    expect(store.applied).toEqual([]);
  });
});
