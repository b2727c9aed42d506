import type { PlayerState, SkillState } from '@ranking/rating';
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

/** What a batch loads of a ladder's players: their states and the estimates of those that have one. */
export interface LoadedPlayers {
  readonly players: PlayerState[];
  readonly skills: SkilledPlayer[];
}

/** A ladder's players and their skill estimates. */
export class PlayerRepository {
  constructor(private readonly sql: Sql) {}

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

  /** Clears the skill estimates of players a re-fold left without one (every game of theirs annulled). */
  async clearSkills(ladder: string, players: readonly string[]): Promise<void> {
    if (players.length === 0) return;
    await this.sql.query(
      `UPDATE ladder_players SET skill_mu = NULL, skill_sigma = NULL, last_played_at = NULL
       WHERE ladder = $1 AND player = ANY($2::text[])`,
      [ladder, players],
    );
  }
}
