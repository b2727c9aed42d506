import { backoffDelay, RETRY_BACKOFF } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from the initial wait and stops at the cap', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4].map((a) => backoffDelay(a, RETRY_BACKOFF, middle))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(backoffDelay(50, RETRY_BACKOFF, middle)).toBe(10_000);
    expect(backoffDelay(10_000, RETRY_BACKOFF, middle)).toBe(10_000);
  });

  it('jitters each wait within the policy share around the schedule', () => {
    expect(backoffDelay(3, RETRY_BACKOFF, () => 0)).toBe(320);
    expect(backoffDelay(3, RETRY_BACKOFF, () => 0.999999)).toBe(480);
    const waits = new Set(Array.from({ length: 50 }, () => backoffDelay(5)));
    expect(waits.size).toBeGreaterThan(10);
    for (const w of waits) expect(w).toBeGreaterThanOrEqual(1280);
  });
});
