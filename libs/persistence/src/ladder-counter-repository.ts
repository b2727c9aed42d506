import type { Sql } from './sql.js';

export interface LadderCounters {
  lastSeq: number;
  accepted: number;
  /**
   * The seq of the ladder's last rating-changes message: the next one names it as its
   * `previousSeq`, so a reader can tell a lost message from an event that had none.
   */
  lastMessageSeq: number;
}

const COUNTER_COLUMNS = 'ladder, last_seq, accepted, last_message_seq';

interface CounterRow {
  ladder: string;
  last_seq: string;
  accepted: string;
  last_message_seq: string;
}

const countersOf = (r: CounterRow): LadderCounters => ({
  lastSeq: Number(r.last_seq),
  accepted: Number(r.accepted),
  lastMessageSeq: Number(r.last_message_seq),
});

/** Each ladder's counters (its last seq, accepted events, last message): the row a batch locks. */
export class LadderCounterRepository {
  constructor(private readonly sql: Sql) {}

  /** Locks the ladders' counters for this transaction (creating missing rows) and returns them. */
  async lockLadders(ladders: readonly string[]): Promise<Map<string, LadderCounters>> {
    const sorted = [...new Set(ladders)].sort();
    if (sorted.length === 0) return new Map();
    await this.sql.query(
      'INSERT INTO ladders (ladder) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING',
      [sorted],
    );
    const rows = await this.sql.query<CounterRow>(
      `SELECT ${COUNTER_COLUMNS} FROM ladders WHERE ladder = ANY($1::text[]) ORDER BY ladder FOR UPDATE`,
      [sorted],
    );
    return new Map(rows.map((r) => [r.ladder, countersOf(r)]));
  }

  async saveLadders(counters: ReadonlyMap<string, LadderCounters>): Promise<void> {
    if (counters.size === 0) return;
    const ladders = [...counters.keys()];
    await this.sql.query(
      `UPDATE ladders
       SET last_seq = c.last_seq, accepted = c.accepted, last_message_seq = c.last_message_seq
       FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])
         AS c(ladder, last_seq, accepted, last_message_seq)
       WHERE ladders.ladder = c.ladder`,
      [
        ladders,
        ladders.map((l) => counters.get(l)!.lastSeq),
        ladders.map((l) => counters.get(l)!.accepted),
        ladders.map((l) => counters.get(l)!.lastMessageSeq),
      ],
    );
  }

  /** Ladders with at least one accepted event. */
  async activeLadders(): Promise<Map<string, LadderCounters>> {
    const rows = await this.sql.query<CounterRow>(
      `SELECT ${COUNTER_COLUMNS} FROM ladders WHERE accepted > 0 ORDER BY ladder`,
    );
    return new Map(rows.map((r) => [r.ladder, countersOf(r)]));
  }
}
