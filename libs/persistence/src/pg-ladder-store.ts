import { instantMillis, type LadderEvent, type PlayerAnnulled } from '@ranking/contracts';
import {
  type Annulment,
  annulmentOf,
  type LadderConfig,
  type LadderStore,
  type StoredSnapshot,
} from '@ranking/rating';
import { payloadBatches } from './event-payload-copy.js';
import { sqlLiteral } from './copy-to.js';
import { LadderSnapshots } from './ladder-snapshots.js';
import { INLINE_PAYLOADS, type PayloadParser } from './payload-parser.js';
import type { Sql } from './sql.js';

/** Rows per page where the connection cannot stream a COPY, and per look for covered games. */
const PAGE = 10_000;
const LOOK = 200;

/**
 * The rating core's LadderStore over PostgreSQL, as the caller's connection sees it (a
 * REPEATABLE READ transaction reads one moment of the store). An event's `seq` is its place in
 * its ladder's log, from 1: position p is the state after the events with seq <= p.
 */
export class PgLadderStore implements LadderStore {
  private readonly snapshots: LadderSnapshots;

  /** `parser`: how the log's payloads become events (by default on this thread, as read). */
  constructor(
    private readonly sql: Sql,
    private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly parser: PayloadParser = INLINE_PAYLOADS,
  ) {
    this.snapshots = new LadderSnapshots(sql);
  }

  async *events(ladder: string, after: number, upTo: number): AsyncGenerator<LadderEvent[]> {
    if (upTo <= after) return;
    if (this.sql.copyTo) {
      const copy = `COPY (SELECT payload FROM event_store WHERE ladder = ${sqlLiteral(ladder)}
        AND seq > ${Number(after)} AND seq <= ${Number(upTo)} ORDER BY seq) TO STDOUT`;
      yield* this.parser.events(payloadBatches(this.sql.copyTo(copy)));
      return;
    }
    for (let from = after; from < upTo; from += PAGE) {
      const rows = await this.sql.query<{ payload: string }>(
        'SELECT payload FROM event_store WHERE ladder = $1 AND seq > $2 AND seq <= $3 ORDER BY seq',
        [ladder, from, Math.min(from + PAGE, upTo)],
      );
      yield rows.map((r) => JSON.parse(r.payload) as LadderEvent);
    }
  }

  async lastPosition(ladder: string): Promise<number> {
    const [row] = await this.sql.query<{ last: string | null }>(
      'SELECT max(seq) AS last FROM event_store WHERE ladder = $1',
      [ladder],
    );
    return Number(row?.last ?? 0);
  }

  /**
   * The position up to which the log had been recorded by an instant: the events before the
   * first one recorded after it (`recorded_at`, its transaction's instant; what `exportLog`
   * with `until` keeps), the last position when none was.
   */
  async recordedBy(ladder: string, instant: Date): Promise<number> {
    const [row] = await this.sql.query<{ seq: string }>(
      'SELECT seq FROM event_store WHERE ladder = $1 AND recorded_at > $2 ORDER BY seq LIMIT 1',
      [ladder, instant],
    );
    return row === undefined ? this.lastPosition(ladder) : Number(row.seq) - 1;
  }

  async annulments(ladder: string): Promise<Annulment[]> {
    const rows = await this.sql.query<{ seq: string; payload: string }>(
      `SELECT seq, payload FROM event_store WHERE ladder = $1 AND type = 'player.annulled' ORDER BY seq`,
      [ladder],
    );
    return rows.map((r) => annulmentOf(JSON.parse(r.payload) as PlayerAnnulled, Number(r.seq) - 1));
  }

  /**
   * Finished games whose text names the player, in log order, checked one by one: PostgreSQL
   * finds the candidates without parsing (the stored text is JSON.stringify's, so the id's JSON
   * string is in it), this decides on the parsed event.
   */
  async firstCovered(ladder: string, annulment: Annulment): Promise<number | null> {
    const needle = JSON.stringify(annulment.player);
    for (let after = 0; ;) {
      const rows = await this.sql.query<{ seq: string; payload: string }>(
        `SELECT seq, payload FROM event_store
         WHERE ladder = $1 AND type = 'game.finished' AND seq > $2 AND seq <= $3
           AND strpos(payload, $4) > 0
         ORDER BY seq LIMIT ${LOOK}`,
        [ladder, after, annulment.position, needle],
      );
      for (const row of rows) {
        const game = JSON.parse(row.payload) as Extract<LadderEvent, { type: 'game.finished' }>;
        if (
          instantMillis(game.finishedAt) >= annulment.since &&
          game.players.some((p) => p.id === annulment.player)
        )
          return Number(row.seq) - 1;
      }
      if (rows.length < LOOK) return null;
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  async snapshotPositions(ladder: string): Promise<number[]> {
    return this.snapshots.positions(this.configOf(ladder));
  }

  async snapshot(ladder: string, position: number): Promise<StoredSnapshot | null> {
    return this.snapshots.read(this.configOf(ladder), position);
  }

  private configOf(ladder: string): LadderConfig {
    const config = this.ladders.get(ladder);
    if (!config) throw new Error(`no ladder ${ladder} is configured`);
    return config;
  }
}
