import { BuildGate, BuildsBusyError } from './build-gate.js';

/** A build the test finishes when it wants. */
function held() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { build: () => done, finish };
}

describe('BuildGate', () => {
  it('runs at most `slots` builds at once, queues `queue` more in order and refuses the rest', async () => {
    const seen: [number, number][] = [];
    const gate = new BuildGate(2, 1, (running, queued) => seen.push([running, queued]));
    const builds = [held(), held(), held()];
    const started: number[] = [];
    const runs = builds.map((b, i) =>
      gate.run(() => {
        started.push(i);
        return b.build();
      }),
    );
    await expect(gate.run(() => Promise.resolve())).rejects.toBeInstanceOf(BuildsBusyError);
    expect(seen.at(-1)).toEqual([2, 1]);
    expect(started).toEqual([0, 1]);
    expect(Math.max(...seen.map(([running]) => running))).toBe(2);

    builds[0]!.finish();
    await runs[0];
    expect(seen.at(-1)).toEqual([2, 0]);
    expect(started).toEqual([0, 1, 2]);
    builds[2]!.finish();
    builds[1]!.finish();
    await Promise.all(runs);
    expect(seen.at(-1)).toEqual([0, 0]);
    expect(Math.max(...seen.map(([running]) => running))).toBe(2);
  });

  it('frees the slot of a build that fails', async () => {
    const gate = new BuildGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('cancelled')))).rejects.toThrow(
      'cancelled',
    );
    await expect(gate.run(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
