import { normalQuantile } from './normal-quantile.js';
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
  it('Given tail chances, Then the quantile gives the textbook z', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
    expect(normalQuantile(1e-9)).toBeCloseTo(-5.997807, 4);
    expect(normalQuantile(0.9)).toBeCloseTo(-normalQuantile(0.1), 9);
  });
});
