/**
 * Instants at the edges of RFC 3339 (long fractions, lower case, the widest offsets) on either
 * side of a period boundary, for the rules tests: placed by their first three fraction digits
 * (never rounded up: not to the millisecond, nor to the microsecond PostgreSQL keeps), the
 * `before` ones lie in the period that ends at the boundary and the `after` ones in the next.
 */
export interface BoundaryEdges {
  readonly what: string;
  readonly ladder: string;
  readonly period: 'daily' | 'weekly' | 'monthly';
  /** The period's key before the boundary, and after it. */
  readonly keys: readonly [before: string, after: string];
  readonly before: readonly string[];
  readonly after: readonly string[];
}

export const BOUNDARY_EDGES: readonly BoundaryEdges[] = [
  {
    // xinbo-go (Asia/Shanghai): the day 2026-03-07 ends at 2026-03-08 06:00 +08:00 = 22:00Z.
    what: 'the daily close of xinbo-go',
    ladder: 'xinbo-go',
    period: 'daily',
    keys: ['2026-03-07', '2026-03-08'],
    before: [
      '2026-03-08T05:59:59.999999999999999999999+08:00',
      '2026-03-07T21:59:59.999999999999999999999Z',
      '2026-03-07t21:59:59.9999999z',
      '2026-03-08T05:59:59.9995+08:00',
      '2026-03-07T21:59:59.9999995Z',
      '2026-03-08T21:58:59.999999999+23:59',
      '2026-03-06T22:00:59.999999999-23:59',
    ],
    after: [
      '2026-03-08T06:00:00.000000000000000000000+08:00',
      '2026-03-07T22:00:00-00:00',
      '2026-03-08T21:59:00.0000001+23:59',
      '2026-03-06T22:01:00-23:59',
    ],
  },
  {
    // igame-gomoku (Asia/Taipei): week 2026-W10 ends on Monday 2026-03-09 06:00 +08:00 = 22:00Z.
    what: 'the weekly close of igame-gomoku',
    ladder: 'igame-gomoku',
    period: 'weekly',
    keys: ['2026-W10', '2026-W11'],
    before: [
      '2026-03-09T05:59:59.999999999999999999999+08:00',
      '2026-03-08T21:59:59.9999999999Z',
      '2026-03-09t21:58:59.9999996+23:59',
      '2026-03-07T22:00:59.99999999-23:59',
    ],
    after: [
      '2026-03-09T06:00:00.0000000000+08:00',
      '2026-03-08t22:00:00z',
      '2026-03-09T21:59:00+23:59',
      '2026-03-07T22:01:00.0000000001-23:59',
    ],
  },
  {
    // igame-gomoku: March 2026 ends at 2026-04-01 00:00 +08:00 = 2026-03-31 16:00Z.
    what: 'the monthly close of igame-gomoku',
    ladder: 'igame-gomoku',
    period: 'monthly',
    keys: ['2026-03', '2026-04'],
    before: [
      '2026-03-31T23:59:59.999999999999999999999+08:00',
      '2026-03-31T15:59:59.9999999Z',
      '2026-04-01T15:58:59.99999999+23:59',
      '2026-03-30T16:00:59.9995-23:59',
    ],
    after: [
      '2026-04-01T00:00:00.000000+08:00',
      '2026-03-31t16:00:00Z',
      '2026-04-01T15:59:00+23:59',
      '2026-03-30T16:01:00.0000001-23:59',
    ],
  },
];
