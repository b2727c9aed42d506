import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

// Rules on a table of rows that JSON Schema cannot say (it has no "the last item"), as ajv
// keywords that the parameter declarations use. Each runs after `items` has checked the rows'
// shape, and sets one error with the reason.

type Row = Readonly<Record<string, unknown>>;

/** A keyword on an array whose value (of `schemaType`) is the rule `check` reads. */
function keyword<S>(
  name: string,
  schemaType: 'string' | 'object',
  check: (rule: S, rows: readonly Row[]) => string | null,
): FuncKeywordDefinition {
  const validate: SchemaValidateFunction = (rule: S, rows: readonly Row[]) => {
    const reason = check(rule, rows);
    validate.errors = reason === null ? [] : [{ keyword: name, message: reason, params: {} }];
    return reason === null;
  };
  return { keyword: name, type: 'array', schemaType, errors: true, validate };
}

/** A K table: every row but the last has the threshold `key`, the last has none, and it grows. */
const thresholds = keyword('thresholds', 'string', (key: string, rows) => {
  const last = rows.length - 1;
  for (const [i, row] of rows.entries()) {
    if (i === last && key in row) return `the last row must have no "${key}"`;
    if (i < last && !(key in row))
      return `row ${i + 1} must have "${key}" (only the last has none)`;
    if (i > 0 && i < last && (row[key] as number) <= (rows[i - 1]![key] as number))
      return `row ${i + 1}: "${key}" must be greater than the row before`;
  }
  return null;
});

/** Rows whose `key` grows strictly from row to row (rescale boundaries). */
const increasing = keyword('increasing', 'string', (key: string, rows) => {
  for (let i = 1; i < rows.length; i++) {
    if ((rows[i]![key] as number) <= (rows[i - 1]![key] as number))
      return `row ${i + 1}: "${key}" must be greater than the row before`;
  }
  return null;
});

/**
 * Level brackets (xinbo-points): rows from the weakest level to the strongest, each covering
 * `weakest` down to `strongest`, together every level of the span once.
 */
const levelSpans = keyword(
  'levelSpans',
  'object',
  (span: { weakest: number; strongest: number }, rows) => {
    let next = span.weakest;
    for (const [i, row] of rows.entries()) {
      const { weakest, strongest } = row as { weakest: number; strongest: number };
      if (weakest !== next)
        return `row ${i + 1}: "weakest" must be ${next} (levels ${span.weakest} to ${span.strongest}, each once, weakest first)`;
      if (strongest > weakest)
        return `row ${i + 1}: "strongest" must not be weaker (a higher level) than "weakest"`;
      next = strongest - 1;
    }
    return next === span.strongest - 1
      ? null
      : `the last row must end at level ${span.strongest} (levels ${span.weakest} to ${span.strongest}, each once)`;
  },
);

export const PARAM_KEYWORDS: readonly FuncKeywordDefinition[] = [
  thresholds,
  increasing,
  levelSpans,
];
