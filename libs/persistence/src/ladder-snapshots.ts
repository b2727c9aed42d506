import {
  encodeSnapshot,
  type LadderConfig,
  type LadderFold,
  ladderConfigKey,
  SNAPSHOT_FORMAT,
  SnapshotDecoder,
  type StoredSnapshot,
} from '@ranking/rating';
import type { Sql } from './sql.js';

/** Text per stored part: a part is read, decoded and let go before the next (a few MB). */
const PART_CHARS = 4_000_000;

/** What one snapshot took to write. */
export interface SavedSnapshot {
  readonly position: number;
  readonly parts: number;
  readonly bytes: number;
}

/**
 * The ladders' snapshots (ADR 24): a fold's state at a log position, as the codec's lines in
 * parts. Derived data: a snapshot of another format or configuration, or of a log whose event at
 * its position is not the one it names, is never read.
 */
export class LadderSnapshots {
  constructor(private readonly sql: Sql) {}

  /** Positions of the snapshots this code can read for the ladder, newest first. */
  async positions(ladder: LadderConfig): Promise<number[]> {
    const rows = await this.sql.query<{ position: string }>(
      `SELECT position FROM ladder_snapshots WHERE ladder = $1 AND format = $2 AND config = $3
       ORDER BY position DESC`,
      [ladder.id, SNAPSHOT_FORMAT, ladderConfigKey(ladder)],
    );
    return rows.map((r) => Number(r.position));
  }

  /** The snapshot at a position, or null when it is gone, of another format or another log. */
  async read(ladder: LadderConfig, position: number): Promise<StoredSnapshot | null> {
    const [head] = await this.sql.query<{
      last_event_id: string;
      parts: number;
      event_id: string | null;
    }>(
      `SELECT s.last_event_id, s.parts, e.event_id
       FROM ladder_snapshots s
       LEFT JOIN event_store e ON e.ladder = s.ladder AND e.seq = s.position
       WHERE s.ladder = $1 AND s.position = $2 AND s.format = $3 AND s.config = $4`,
      [ladder.id, position, SNAPSHOT_FORMAT, ladderConfigKey(ladder)],
    );
    if (head === undefined) return null;
    if (position > 0 && head.event_id !== head.last_event_id) return null;
    const decoder = new SnapshotDecoder(ladder);
    for (let part = 0; part < head.parts; part++) {
      const [row] = await this.sql.query<{ body: string }>(
        'SELECT body FROM ladder_snapshot_parts WHERE ladder = $1 AND position = $2 AND part = $3',
        [ladder.id, position, part],
      );
      if (row === undefined) return null;
      for (
        let at = 0, end = row.body.indexOf('\n');
        at < row.body.length;
        end = row.body.indexOf('\n', at)
      ) {
        if (end < 0) end = row.body.length;
        decoder.line(row.body.slice(at, end));
        at = end + 1;
      }
    }
    return decoder.result();
  }

  /**
   * Writes the fold's state as the snapshot at its position (replacing one there), in parts;
   * `lastEventId` is the id of the log's event at that position. Call it in a transaction, so
   * that a reader never sees a snapshot without all its parts.
   */
  async save(fold: LadderFold, lastEventId: string): Promise<SavedSnapshot> {
    const ladder = fold.ladder.id;
    const position = fold.accepted;
    // One writer a ladder at a time (two replicas' refold threads may write the same one).
    await this.sql.query("SELECT pg_advisory_xact_lock(hashtext('ladder-snapshot:' || $1))", [
      ladder,
    ]);
    await this.sql.query('DELETE FROM ladder_snapshots WHERE ladder = $1 AND position = $2', [
      ladder,
      position,
    ]);
    await this.sql.query(
      `INSERT INTO ladder_snapshots (ladder, position, format, config, last_event_id, parts, bytes)
       VALUES ($1, $2, $3, $4, $5, 0, 0)`,
      [ladder, position, SNAPSHOT_FORMAT, ladderConfigKey(fold.ladder), lastEventId],
    );
    let parts = 0;
    let bytes = 0;
    let chunk: string[] = [];
    let size = 0;
    const flush = async () => {
      const body = chunk.join('\n');
      await this.sql.query(
        'INSERT INTO ladder_snapshot_parts (ladder, position, part, body) VALUES ($1, $2, $3, $4)',
        [ladder, position, parts++, body],
      );
      bytes += Buffer.byteLength(body);
      chunk = [];
      size = 0;
    };
    for (const line of encodeSnapshot(fold, lastEventId)) {
      chunk.push(line);
      size += line.length + 1;
      if (size >= PART_CHARS) await flush();
    }
    if (chunk.length > 0) await flush();
    await this.sql.query(
      'UPDATE ladder_snapshots SET parts = $3, bytes = $4 WHERE ladder = $1 AND position = $2',
      [ladder, position, parts, bytes],
    );
    return { position, parts, bytes };
  }

  /** Keeps the ladder's newest `keep` snapshots (and drops any this code cannot read). */
  async prune(ladder: LadderConfig, keep: number): Promise<number> {
    const rows = await this.sql.query<{ position: string }>(
      `DELETE FROM ladder_snapshots WHERE ladder = $1 AND (format <> $2 OR config <> $3 OR position NOT IN (
         SELECT position FROM ladder_snapshots WHERE ladder = $1 AND format = $2 AND config = $3
         ORDER BY position DESC LIMIT $4))
       RETURNING position`,
      [ladder.id, SNAPSHOT_FORMAT, ladderConfigKey(ladder), keep],
    );
    return rows.length;
  }

  /** The position of the ladder's newest readable snapshot (0 when it has none). */
  async newest(ladder: LadderConfig): Promise<number> {
    return (await this.positions(ladder))[0] ?? 0;
  }
}
