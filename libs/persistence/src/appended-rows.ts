import { copyTextField } from './copy-from.js';
import type { Sql } from './sql.js';
import { storableOrNull } from './storable-text.js';

/** A column of an append-only table: its name and PostgreSQL type (for the INSERT fallback). */
export type AppendColumn = readonly [
  name: string,
  type: 'text' | 'int4' | 'bigint' | 'float8' | 'json',
];

/** A value of an appended row: text, a number, or null. */
export type AppendValue = string | number | null;

/**
 * A value as it is stored. A text PostgreSQL cannot store (NUL, an unpaired surrogate) fails
 * the statement, as it did when rows travelled as JSON (node-pg would otherwise send U+FFFD in
 * its place); a number that is not finite is null, as JSON made it.
 */
function stored(value: AppendValue): AppendValue {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value !== null && storableOrNull(value) === null)
    throw new Error(`a text PostgreSQL cannot store: ${JSON.stringify(value.slice(0, 80))}`);
  return value;
}

/** COPY's text format escapes these (see copy-from.ts); most fields hold none. */
const COPY_SPECIAL = /[\\\t\n\r]/;

/**
 * A value as a COPY text field. A `json` column holds `JSON.stringify` output, which escapes
 * NUL and unpaired surrogates itself, so only text columns are checked (`stored`).
 */
function copyField(value: AppendValue, json: boolean): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  if (!json) stored(value);
  return COPY_SPECIAL.test(value) ? copyTextField(value) : value;
}

/**
 * Appends rows to a table in one statement: `COPY … FROM STDIN` where the connection offers it
 * (PostgreSQL parses tab-separated text instead of a JSON document, and nothing is escaped
 * twice), else one INSERT of unnested arrays. Rows are arrays of values in column order.
 */
export async function appendRows(
  sql: Sql,
  table: string,
  columns: readonly AppendColumn[],
  rows: readonly (readonly AppendValue[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(', ');
  if (sql.copyFrom) {
    // One string built in place: no per-row array of fields and join (the drain's hot loop).
    const json = columns.map(([, type]) => type === 'json');
    const width = columns.length;
    let data = '';
    for (const row of rows) {
      data += copyField(row[0] ?? null, json[0]!);
      for (let i = 1; i < width; i++) data += '\t' + copyField(row[i] ?? null, json[i]!);
      data += '\n';
    }
    await sql.copyFrom(`COPY ${table} (${names}) FROM STDIN`, data);
    return;
  }
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type === 'json' ? 'text' : type}[]`);
  const casts = columns.map(([name, type]) => (type === 'json' ? `${name}::json` : name));
  await sql.query(
    `INSERT INTO ${table} (${names}) SELECT ${casts.join(', ')} FROM unnest(${arrays.join(', ')}) AS r(${names})`,
    columns.map((_, i) => rows.map((row) => stored(row[i] ?? null))),
  );
}
