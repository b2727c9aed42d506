import type { LadderEvent } from '@ranking/contracts';
import { type AppendColumn, appendRows } from './appended-rows.js';
import type { Sql } from './sql.js';

const EVENT_COLUMNS: readonly AppendColumn[] = [
  ['ladder', 'text'],
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['type', 'text'],
  ['tournament', 'text'],
  ['game_id', 'text'],
  ['payload', 'text'],
];

/** An accepted event as the event store keeps it. */
export interface StoredEvent {
  readonly ladder: string;
  readonly seq: number;
  readonly event: LadderEvent;
}

/** The event store: accepted events in each ladder's log order, appended and read back. */
export class EventStoreRepository {
  constructor(private readonly sql: Sql) {}

  /** Which of these event ids the event store already holds. */
  async knownEventIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.sql.query<{ event_id: string }>(
      'SELECT event_id FROM event_store WHERE event_id = ANY($1::text[])',
      [ids],
    );
    return new Set(rows.map((r) => r.event_id));
  }

  /** Accepted events: COPY where the connection offers it (see appendRows). */
  async appendEvents(events: readonly StoredEvent[]): Promise<void> {
    await appendRows(
      this.sql,
      'event_store',
      EVENT_COLUMNS,
      events.map(({ ladder, seq, event }) => [
        ladder,
        seq,
        event.id,
        event.type,
        event.type === 'game.finished' ? (event.context?.match?.tournament ?? null) : null,
        event.type === 'game.finished' || event.type === 'game.corrected' ? event.gameId : null,
        JSON.stringify(event),
      ]),
    );
  }

  /**
   * The event store in log order (ladder by ladder, each in its own order), a page at a time,
   * each payload as PostgreSQL's JSON text (what exports and re-folds read, without a parse).
   */
  async eventTextsAfter(
    ladder: string | null,
    after: { ladder: string; seq: number } | null,
    limit: number,
    /** Only the events recorded by this instant (each ladder's prefix of its log then). */
    until: Date | null = null,
  ): Promise<{ ladder: string; seq: number; payload: string }[]> {
    // Two plain range statements: `ladder = $1 AND seq > $2` starts the primary key's scan at
    // the page's first row, where one statement with `$1 IS NULL OR …` arms scanned the
    // ladder's index from its start on every page (each page slower than the one before).
    const recorded = until === null ? '' : ' AND recorded_at <= $4';
    const rows = await this.sql.query<{ ladder: string; seq: string; payload: string }>(
      ladder === null
        ? `SELECT ladder, seq, payload FROM event_store
           WHERE (ladder, seq) > ($1, $2::bigint)${recorded} ORDER BY ladder, seq LIMIT $3`
        : `SELECT ladder, seq, payload FROM event_store
           WHERE ladder = $1 AND seq > $2::bigint${recorded} ORDER BY ladder, seq LIMIT $3`,
      // '' sorts before every ladder id; seq starts at 1.
      [
        ...(ladder === null
          ? [after?.ladder ?? '', after?.seq ?? 0, limit]
          : [ladder, after?.seq ?? 0, limit]),
        ...(until === null ? [] : [until]),
      ],
    );
    return rows.map((r) => ({ ladder: r.ladder, seq: Number(r.seq), payload: r.payload }));
  }

  /** The id of the ladder's event at a seq (null: none there). */
  async eventIdAt(ladder: string, seq: number): Promise<string | null> {
    const [row] = await this.sql.query<{ event_id: string }>(
      'SELECT event_id FROM event_store WHERE ladder = $1 AND seq = $2',
      [ladder, seq],
    );
    return row?.event_id ?? null;
  }
}
