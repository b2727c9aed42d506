import type { HealthCheck } from './health-check.js';
import { sharedCheck } from './shared-check.js';

describe('sharedCheck', () => {
  const counting = (answer: () => Promise<Record<string, unknown> | void>) => {
    const runs: string[] = [];
    let clock = 0;
    const inner: HealthCheck = { name: 'kafka', check: answer };
    const shared = sharedCheck(
      inner,
      (name) => runs.push(name),
      () => clock,
    );
    return { runs, shared, tick: (ms: number) => (clock += ms) };
  };

  it('given many probes within a second, then the check runs once and all share its answer', async () => {
    let n = 0;
    const { runs, shared, tick } = counting(() => Promise.resolve({ run: ++n }));
    const answers = await Promise.all(Array.from({ length: 50 }, () => shared.check()));
    tick(999);
    answers.push(await shared.check());
    expect(runs).toEqual(['kafka']);
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set(['{"run":1}']));
    tick(1);
    expect(await shared.check()).toEqual({ run: 2 });
    expect(runs).toHaveLength(2);
  });

  it('shares a failure as it shares a success', async () => {
    const { runs, shared } = counting(() => Promise.reject(new Error('no brokers')));
    await expect(shared.check()).rejects.toThrow('no brokers');
    await expect(shared.check()).rejects.toThrow('no brokers');
    expect(runs).toHaveLength(1);
  });

  it('given a run still under way after a second, then probes wait for it rather than start another, until it is overdue', async () => {
    let release = () => {};
    const { runs, shared, tick } = counting(
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const first = shared.check();
    tick(2_000);
    expect(shared.check()).toBe(first);
    expect(runs).toHaveLength(1);
    tick(1_000);
    const second = shared.check();
    expect(second).not.toBe(first);
    expect(runs).toHaveLength(2);
    release();
    await second;
  });
});
