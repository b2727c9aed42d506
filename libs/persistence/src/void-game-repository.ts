import { type AppendColumn, appendRows } from './appended-rows.js';
import type { Sql } from './sql.js';

const VOID_COLUMNS: readonly AppendColumn[] = [
  ['ladder', 'text'],
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['reason', 'text'],
];

/** Games accepted but voided by the rules, in log order. */
export class VoidGameRepository {
  constructor(private readonly sql: Sql) {}

  async recordVoids(
    rows: readonly { ladder: string; seq: number; eventId: string; reason: string }[],
  ): Promise<void> {
    await appendRows(
      this.sql,
      'void_games',
      VOID_COLUMNS,
      rows.map((r) => [r.ladder, r.seq, r.eventId, r.reason]),
    );
  }

  /** Void games in log order. */
  async voidList(ladder: string | null): Promise<{ id: string; reason: string }[]> {
    return this.sql.query<{ id: string; reason: string }>(
      'SELECT event_id AS id, reason FROM void_games WHERE ($1::text IS NULL OR ladder = $1) ORDER BY ladder, seq',
      [ladder],
    );
  }
}
