import type { BoardStanding, LadderEvent } from '@ranking/contracts';
import type { GameRow, PlayerChange, PlayerState, Skill, SkillState } from '@ranking/rating';
import {
  PLAYER_COLUMNS,
  playerRecords,
  playerFromRow,
  type PlayerRow,
  skillFromRow,
  type SkilledPlayer,
  UPSERT_PLAYERS,
} from './player-rows.js';
import type { Sql } from './sql.js';
import { type AppendColumn, appendRows } from './appended-rows.js';

const EVENT_COLUMNS: readonly AppendColumn[] = [
  ['ladder', 'text'],
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['type', 'text'],
  ['tournament', 'text'],
  ['game_id', 'text'],
  ['payload', 'text'],
];
const HISTORY_COLUMNS: readonly AppendColumn[] = [
  ['ladder', 'text'],
  ['player', 'text'],
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['before', 'float8'],
  ['after', 'float8'],
  ['delta', 'float8'],
  ['result', 'text'],
  ['why', 'json'],
  ['games', 'int4'],
  ['wins', 'int4'],
  ['losses', 'int4'],
  ['draws', 'int4'],
  ['rated_games', 'int4'],
  ['level', 'int4'],
  ['skill_mu_before', 'float8'],
  ['skill_sigma_before', 'float8'],
  ['skill_mu_after', 'float8'],
  ['skill_sigma_after', 'float8'],
];
const VOID_COLUMNS: readonly AppendColumn[] = [
  ['ladder', 'text'],
  ['seq', 'bigint'],
  ['event_id', 'text'],
  ['reason', 'text'],
];

/** An accepted event as the event store keeps it. */
export interface StoredEvent {
  readonly ladder: string;
  readonly seq: number;
  readonly event: LadderEvent;
}

/**
 * The board fields of a player's state (the contract's `BoardStanding`: what a rating-changes
 * message lists and a history row keeps), copied (a fold changes its records in place).
 */
export const boardStandingOf = (p: PlayerState): BoardStanding => ({
  games: p.games,
  wins: p.wins,
  losses: p.losses,
  draws: p.draws,
  ratedGames: p.ratedGames,
  level: p.level,
});

export interface HistoryRow {
  readonly ladder: string;
  readonly seq: number;
  readonly eventId: string;
  readonly change: PlayerChange;
  /** The player after the change: the latest row by an instant is the player as the board showed them then. */
  readonly standing: BoardStanding;
  /** How the event moved the player's skill estimate (null: it did not). */
  readonly skill: { readonly before: Skill; readonly after: Skill } | null;
}

/** What a batch loads of a ladder's players: their states and the estimates of those that have one. */
export interface LoadedPlayers {
  readonly players: PlayerState[];
  readonly skills: SkilledPlayer[];
}

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

/** Ladder state in PostgreSQL: every read is one query for a whole batch, every write one statement. */
export class LadderRepository {
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

  /** Players of several ladders in one query: by ladder, those that exist, and their skill estimates. */
  async loadPlayersOf(
    wanted: ReadonlyMap<string, readonly string[]>,
  ): Promise<Map<string, LoadedPlayers>> {
    const keys = [...wanted].flatMap(([l, ids]) => ids.map((p) => ({ l, p })));
    const found = new Map<string, LoadedPlayers>();
    if (keys.length === 0) return found;
    const rows = await this.sql.query<PlayerRow & { ladder: string }>(
      // One primary-key lookup per key. Written as a join (or IN), the planner takes the
      // recordset's guess of 100 rows and hashes it against a sequential scan of every player;
      // OFFSET 0 keeps the lateral subquery from being flattened into such a join.
      `SELECT ladder, ${PLAYER_COLUMNS} FROM json_to_recordset($1::json) AS w(l text, p text)
       CROSS JOIN LATERAL (SELECT * FROM ladder_players x
                           WHERE x.ladder = w.l AND x.player = w.p OFFSET 0) AS lp`,
      [JSON.stringify(keys)],
    );
    for (const row of rows) {
      let loaded = found.get(row.ladder);
      if (!loaded) found.set(row.ladder, (loaded = { players: [], skills: [] }));
      loaded.players.push(playerFromRow(row));
      const skill = skillFromRow(row);
      if (skill) loaded.skills.push(skill);
    }
    return found;
  }

  /** A page of a ladder's players in id order (for closes that touch everyone). */
  async playersAfter(ladder: string, after: string | null, limit: number): Promise<PlayerState[]> {
    const rows = await this.sql.query<PlayerRow>(
      `SELECT ${PLAYER_COLUMNS} FROM ladder_players
       WHERE ladder = $1 AND player > $2 ORDER BY player LIMIT $3`,
      // '' sorts before every id (ids have at least one character); a plain bound keeps the
      // primary key's order usable, where `$2 IS NULL OR …` made every page a sort of the ladder.
      [ladder, after ?? '', limit],
    );
    return rows.map(playerFromRow);
  }

  /** The same page with the players' skill estimates (those that have one). */
  async playersWithSkillAfter(
    ladder: string,
    after: string | null,
    limit: number,
  ): Promise<LoadedPlayers> {
    const rows = await this.sql.query<PlayerRow>(
      `SELECT ${PLAYER_COLUMNS} FROM ladder_players
       WHERE ladder = $1 AND player > $2 ORDER BY player LIMIT $3`,
      [ladder, after ?? '', limit],
    );
    return {
      players: rows.map(playerFromRow),
      skills: rows.flatMap((r) => skillFromRow(r) ?? []),
    };
  }

  /** Players of a ladder, with the skill estimates of those that have one in `skills`. */
  async upsertPlayers(
    ladder: string,
    players: readonly PlayerState[],
    skills?: ReadonlyMap<string, SkillState>,
  ): Promise<void> {
    await this.upsertPlayersOf([[ladder, players, skills]]);
  }

  /** Players of several ladders in one statement (an absent estimate leaves the stored one). */
  async upsertPlayersOf(
    byLadder: readonly (readonly [
      string,
      readonly PlayerState[],
      ReadonlyMap<string, SkillState>?,
    ])[],
  ): Promise<void> {
    if (byLadder.every(([, players]) => players.length === 0)) return;
    await this.sql.query(UPSERT_PLAYERS, [playerRecords(byLadder)]);
  }

  /**
   * Encoded game records (see the rating core's game-record-codec) by game id, with their saved
   * skill estimates (skill-record-codec; null for a game stored before the estimate existed).
   */
  async loadGames(
    ladder: string,
    gameIds: readonly string[],
  ): Promise<Map<string, { record: string; skill: string | null }>> {
    if (gameIds.length === 0) return new Map();
    const rows = await this.sql.query<{ game_id: string; record: string; skill: string | null }>(
      'SELECT game_id, record, skill FROM ladder_games WHERE ladder = $1 AND game_id = ANY($2::text[])',
      [ladder, gameIds],
    );
    return new Map(rows.map((r) => [r.game_id, { record: r.record, skill: r.skill }]));
  }

  /** Games of several ladders in one statement (a null estimate leaves the stored one). */
  async upsertGamesOf(byLadder: readonly (readonly [string, readonly GameRow[]])[]): Promise<void> {
    const rows = byLadder.flatMap(([l, games]) => games.map(([g, r, s]) => ({ l, g, r, s })));
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO ladder_games (ladder, game_id, record, skill)
       SELECT r.l, r.g, r.r, r.s FROM json_to_recordset($1::json) AS r(l text, g text, r text, s text)
       ON CONFLICT (ladder, game_id) DO UPDATE
       SET record = EXCLUDED.record, skill = COALESCE(EXCLUDED.skill, ladder_games.skill)`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Inserts games the ladder does not hold: what a rebuild writes after `deleteLadderState` in
   * the same transaction. No conflict handling, so a plain insert (about a fifth cheaper for
   * PostgreSQL than the upsert).
   */
  async insertGames(ladder: string, games: readonly GameRow[]): Promise<void> {
    await appendRows(
      this.sql,
      'ladder_games',
      [
        ['ladder', 'text'],
        ['game_id', 'text'],
        ['record', 'text'],
        ['skill', 'text'],
      ],
      games.map(([game, record, skill]) => [ladder, game, record, skill]),
    );
  }

  /** Clears the skill estimates of players a re-fold left without one (every game of theirs annulled). */
  async clearSkills(ladder: string, players: readonly string[]): Promise<void> {
    if (players.length === 0) return;
    await this.sql.query(
      `UPDATE ladder_players SET skill_mu = NULL, skill_sigma = NULL, last_played_at = NULL
       WHERE ladder = $1 AND player = ANY($2::text[])`,
      [ladder, players],
    );
  }

  /** Deletes a ladder's players and game records (a rebuild writes them anew in the same transaction). */
  /** Deletes a ladder's game records (a re-fold writes them all again with `insertGames`). */
  async deleteGames(ladder: string): Promise<void> {
    await this.sql.query('DELETE FROM ladder_games WHERE ladder = $1', [ladder]);
  }

  async deleteLadderState(ladder: string): Promise<void> {
    await this.sql.query('DELETE FROM ladder_players WHERE ladder = $1', [ladder]);
    await this.sql.query('DELETE FROM ladder_games WHERE ladder = $1', [ladder]);
  }

  /** Closed periods of a ladder among the given `period:key` ids. */
  async closedPeriods(ladder: string): Promise<Set<string>> {
    const rows = await this.sql.query<{ id: string }>(
      "SELECT period || ':' || period_key AS id FROM ladder_periods WHERE ladder = $1",
      [ladder],
    );
    return new Set(rows.map((r) => r.id));
  }

  async markClosed(ladder: string, period: string, key: string, seq: number): Promise<void> {
    await this.sql.query(
      'INSERT INTO ladder_periods (ladder, period, period_key, seq) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [ladder, period, key, seq],
    );
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

  /** Annulments accepted into the store, for the refolder to swap in (ADR 24). */
  async recordPendingAnnulments(
    rows: readonly { ladder: string; seq: number; eventId: string }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.sql.query(
      `INSERT INTO pending_annulments (ladder, seq, event_id)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])`,
      [rows.map((r) => r.ladder), rows.map((r) => r.seq), rows.map((r) => r.eventId)],
    );
  }

  async appendHistory(rows: readonly HistoryRow[]): Promise<void> {
    await appendRows(
      this.sql,
      'rating_history',
      HISTORY_COLUMNS,
      rows.map(({ ladder, seq, eventId, change, standing, skill }) => [
        ladder,
        change.player,
        seq,
        eventId,
        change.before,
        change.after,
        change.delta,
        change.result,
        JSON.stringify(change.why),
        standing.games,
        standing.wins,
        standing.losses,
        standing.draws,
        standing.ratedGames,
        standing.level,
        skill?.before.mu ?? null,
        skill?.before.sigma ?? null,
        skill?.after.mu ?? null,
        skill?.after.sigma ?? null,
      ]),
    );
  }

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

  /** Freezes the ladder's standings as of a daily close (what the 06:00 board shows). */
  async freezeDailyStandings(ladder: string, key: string): Promise<void> {
    await this.sql.query(
      `INSERT INTO daily_standings (ladder, period_key, player, rating, games, wins, losses, draws, rated_games, level)
       SELECT ladder, $2, player, rating, games, wins, losses, draws, rated_games, level
       FROM ladder_players WHERE ladder = $1 AND games > 0
       ON CONFLICT DO NOTHING`,
      [ladder, key],
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

  /** Ladders with at least one accepted event. */
  async activeLadders(): Promise<Map<string, LadderCounters>> {
    const rows = await this.sql.query<CounterRow>(
      `SELECT ${COUNTER_COLUMNS} FROM ladders WHERE accepted > 0 ORDER BY ladder`,
    );
    return new Map(rows.map((r) => [r.ladder, countersOf(r)]));
  }

  /** Void games in log order. */
  async voidList(ladder: string | null): Promise<{ id: string; reason: string }[]> {
    return this.sql.query<{ id: string; reason: string }>(
      'SELECT event_id AS id, reason FROM void_games WHERE ($1::text IS NULL OR ladder = $1) ORDER BY ladder, seq',
      [ladder],
    );
  }
}
