import type { Sql } from './sql.js';

/** Rows a page: enough to keep round trips few, little enough to hold. */
const PAGE = 20_000;

/**
 * The stored game results and corrections of one ladder, or of every ladder, in each ladder's
 * log order, as their payloads' text (what `ranking integrity --from-store` reads). Pages by
 * (ladder, seq), so a large store is never held whole.
 */
export class GameEventReader {
  constructor(private readonly sql: Sql) {}

  /** `afterSeq`: with one ladder, only its events after this position (a refresh). */
  async *payloads(
    ladder: string | null,
    afterSeq = '-1',
  ): AsyncGenerator<{ readonly seq: string; readonly payload: string }> {
    let after: { ladder: string; seq: string } = { ladder: ladder ?? '', seq: afterSeq };
    for (;;) {
      // Ordered by the column, qualified: a bare `seq` would name the text the query answers,
      // and '10' sorts before '9' (pages then skipped rows and the log came out of order).
      const rows = await this.sql.query<{ ladder: string; seq: string; payload: string }>(
        `SELECT ladder, seq::text AS seq, payload::text AS payload FROM event_store
         WHERE type IN ('game.finished', 'game.corrected') AND ($1::text IS NULL OR ladder = $1)
           AND (ladder, seq) > ($2, $3::bigint)
         ORDER BY ladder, event_store.seq LIMIT ${PAGE}`,
        [ladder, after.ladder, after.seq],
      );
      for (const row of rows) yield row;
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1]!;
      after = { ladder: last.ladder, seq: last.seq };
    }
  }
}
