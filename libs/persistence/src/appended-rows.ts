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

/** The header of COPY's binary format: its signature, no flags, no header extension. */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

/**
 * Rows in COPY's binary format, written into one growing buffer: numbers go as their eight (or
 * four) bytes, so no float is formatted as text here and parsed back by PostgreSQL, and texts
 * go as their UTF-8 bytes, with nothing to escape.
 */
class BinaryRows {
  private buf = Buffer.allocUnsafe(1 << 16);
  private at = 0;

  constructor(private readonly types: readonly AppendColumn[1][]) {
    this.at = BINARY_HEADER.copy(this.buf, 0);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  row(values: readonly AppendValue[]): void {
    const { types } = this;
    this.room(2);
    this.at = this.buf.writeInt16BE(types.length, this.at);
    for (let i = 0; i < types.length; i++) this.field(values[i] ?? null, types[i]!);
  }

  private field(value: AppendValue, type: AppendColumn[1]): void {
    if (typeof value === 'number') {
      // JSON had no NaN or Infinity: such a number is stored as null, as it always was.
      if (!Number.isFinite(value)) return this.nullField();
      this.room(12);
      if (type === 'float8') {
        this.at = this.buf.writeInt32BE(8, this.at);
        // + 0: -0 went as the text "0" before; it still does.
        this.at = this.buf.writeDoubleBE(value + 0, this.at);
        return;
      }
      if (!Number.isSafeInteger(value) || (type !== 'bigint' && type !== 'int4'))
        throw new Error(`a number column ${type} cannot hold ${value}`);
      if (type === 'int4') {
        this.at = this.buf.writeInt32BE(4, this.at);
        this.at = this.buf.writeInt32BE(value, this.at);
        return;
      }
      const high = Math.floor(value / 0x1_0000_0000);
      this.at = this.buf.writeInt32BE(8, this.at);
      this.at = this.buf.writeInt32BE(high, this.at);
      this.at = this.buf.writeUInt32BE(value - high * 0x1_0000_0000, this.at);
      return;
    }
    if (value === null) return this.nullField();
    if (type !== 'text' && type !== 'json') throw new Error(`a ${type} column cannot hold a text`);
    // A `json` column holds JSON.stringify output, which escapes NUL and unpaired surrogates.
    if (type === 'text') stored(value);
    // At most three bytes of UTF-8 per UTF-16 unit.
    this.room(4 + value.length * 3);
    const bytes = this.buf.write(value, this.at + 4, 'utf8');
    this.buf.writeInt32BE(bytes, this.at);
    this.at += 4 + bytes;
  }

  private nullField(): void {
    this.room(4);
    this.at = this.buf.writeInt32BE(-1, this.at);
  }

  /** The rows and the format's trailer. */
  end(): Buffer {
    this.room(2);
    this.at = this.buf.writeInt16BE(-1, this.at);
    return this.buf.subarray(0, this.at);
  }
}

/**
 * Appends rows to a table in one statement: `COPY … FROM STDIN` in the binary format where the
 * connection offers it (no JSON document to parse, nothing escaped, no number formatted as
 * text), else one INSERT of unnested arrays. Rows are arrays of values in column order.
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
    const data = new BinaryRows(columns.map(([, type]) => type));
    for (const row of rows) data.row(row);
    await sql.copyFrom(`COPY ${table} (${names}) FROM STDIN (FORMAT binary)`, data.end());
    return;
  }
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type === 'json' ? 'text' : type}[]`);
  const casts = columns.map(([name, type]) => (type === 'json' ? `${name}::json` : name));
  await sql.query(
    `INSERT INTO ${table} (${names}) SELECT ${casts.join(', ')} FROM unnest(${arrays.join(', ')}) AS r(${names})`,
    columns.map((_, i) => rows.map((row) => stored(row[i] ?? null))),
  );
}
