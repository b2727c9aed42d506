import type { ParamSchema } from './rule-params.js';

/** A row of a K table: its K applies to ratings below `below`; the last row has no `below`. */
export interface KRow {
  readonly below?: number;
  readonly k: number;
}

export type KTable = readonly KRow[];

/** K for a rating: the first row, read top down, whose `below` is greater than the rating. */
export function kFor(table: KTable, rating: number): number {
  for (const row of table) {
    if (row.below === undefined || rating < row.below) return row.k;
  }
  // Unreachable for a validated table, whose last row has no `below`.
  return table[table.length - 1]!.k;
}

/** The schema of a K table parameter (RULES.md: K whole, rows ending with one `{"k": K}`). */
export const kTableSchema = (defaults: KTable): ParamSchema<KTable> => ({
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['k'],
    properties: { below: { type: 'number' }, k: { type: 'integer' } },
  },
  thresholds: 'below',
  default: defaults,
});
