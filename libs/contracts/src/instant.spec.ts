import { instantMillis } from './instant.js';

// Lower-case t and z are RFC 3339 too: they must place an event where the upper-case form does.

describe('instantMillis', () => {
  it.each([
    ['2026-11-29t13:05:00z', '2026-11-29T13:05:00Z'],
    ['2026-11-29t13:05:00+08:00', '2026-11-29T13:05:00+08:00'],
    ['2026-11-29T13:05:00.5z', '2026-11-29T13:05:00.500Z'],
    ['2026-11-29t13:05:00.123456789-05:30', '2026-11-29T13:05:00.123-05:30'],
  ])('places %s where %s is', (lower, upper) => {
    expect(instantMillis(lower)).toBe(instantMillis(upper));
    expect(Number.isFinite(instantMillis(upper))).toBe(true);
  });

  it('reads the offset', () => {
    expect(instantMillis('2026-11-29T13:05:00+08:00')).toBe(Date.UTC(2026, 10, 29, 5, 5));
    expect(instantMillis('2026-11-29t05:05:00z')).toBe(Date.UTC(2026, 10, 29, 5, 5));
  });

  it('places no leap second', () => {
    expect(instantMillis('2026-12-31T23:59:60Z')).toBeNaN();
    expect(instantMillis('2026-12-31t23:59:60z')).toBeNaN();
  });
});
