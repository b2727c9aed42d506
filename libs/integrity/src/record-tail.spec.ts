import { normalCdf, normalQuantile } from './normal-tail.js';
import { honestRecordChance } from './record-tail.js';

describe('honestRecordChance', () => {
  it('Given even games known exactly, Then it is the binomial tail', () => {
    const games = Array.from({ length: 10 }, () => ({ gap: 0, error: 0 }));
    expect(honestRecordChance(games, 9)).toBeCloseTo(11 / 1024, 12);
    expect(honestRecordChance(games, 0)).toBeCloseTo(1, 12);
  });

  it('Given the strengths uncertain, Then an extreme record is less surprising than if they were known', () => {
    const known = Array.from({ length: 20 }, () => ({ gap: 0, error: 0 }));
    const unsure = Array.from({ length: 20 }, () => ({ gap: 0, error: 150 }));
    expect(honestRecordChance(unsure, 19)).toBeGreaterThan(10 * honestRecordChance(known, 19));
  });
});

describe('the normal distribution', () => {
  it('Given z, Then the quantile undoes the distribution function', () => {
    for (const z of [-4, -2.5, -1, 0, 0.5, 2, 3.5, 5])
      expect(normalQuantile(normalCdf(z))).toBeCloseTo(z, 5);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
  });
});
