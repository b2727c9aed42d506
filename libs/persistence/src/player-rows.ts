import type { PeriodCounts, PlayerState, SkillState } from '@ranking/rating';

/** A ladder_players row as node-postgres returns it. */
export interface PlayerRow {
  player: string;
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  rated_games: number;
  first_rated_at: string | null;
  week_games: PeriodCounts;
  month_games: PeriodCounts;
  disconnects: number;
  clean_streak: number;
  disconnect_penalties: number;
  level: number;
  territory: boolean;
  captures: number;
  day_captures: PeriodCounts;
  skill_mu: number | null;
  skill_sigma: number | null;
  last_played_at: string | null;
}

/** A player's skill estimate as a store keeps it beside the player. */
export type SkilledPlayer = SkillState & { readonly id: string };

export const PLAYER_COLUMNS =
  'player, rating, games, wins, losses, draws, rated_games, first_rated_at, week_games, month_games, ' +
  'disconnects, clean_streak, disconnect_penalties, level, territory, captures, day_captures, ' +
  'skill_mu, skill_sigma, last_played_at';

/** The row's skill estimate, when the player has one. */
export const skillFromRow = (row: PlayerRow): SkilledPlayer | null =>
  row.skill_mu === null || row.skill_sigma === null
    ? null
    : {
        id: row.player,
        mu: row.skill_mu,
        sigma: row.skill_sigma,
        lastPlayedAt: row.last_played_at === null ? null : Number(row.last_played_at),
      };

export function playerFromRow(row: PlayerRow): PlayerState {
  return {
    id: row.player,
    rating: row.rating,
    games: row.games,
    wins: row.wins,
    losses: row.losses,
    draws: row.draws,
    ratedGames: row.rated_games,
    firstRatedAt: row.first_rated_at === null ? null : Number(row.first_rated_at),
    weekGames: row.week_games,
    monthGames: row.month_games,
    disconnects: row.disconnects,
    cleanStreak: row.clean_streak,
    disconnectPenalties: row.disconnect_penalties,
    level: row.level,
    territory: row.territory,
    captures: row.captures,
    dayCaptures: row.day_captures,
  };
}

/**
 * Players by ladder as one JSON document of rows keyed by column (nested counts as JSON
 * strings), for one multi-row upsert; with each player's skill estimate when given (else null,
 * which the upsert reads as "unchanged").
 */
export function playerRecords(
  byLadder: Iterable<readonly [string, readonly PlayerState[], ReadonlyMap<string, SkillState>?]>,
): string {
  return JSON.stringify(
    [...byLadder].flatMap(([ladder, players, skills]) =>
      players.map((p) => ({
        ladder,
        player: p.id,
        rating: p.rating,
        games: p.games,
        wins: p.wins,
        losses: p.losses,
        draws: p.draws,
        rated_games: p.ratedGames,
        first_rated_at: p.firstRatedAt,
        week_games: JSON.stringify(p.weekGames),
        month_games: JSON.stringify(p.monthGames),
        disconnects: p.disconnects,
        clean_streak: p.cleanStreak,
        disconnect_penalties: p.disconnectPenalties,
        level: p.level,
        territory: p.territory,
        captures: p.captures,
        day_captures: JSON.stringify(p.dayCaptures),
        ...skillColumns(skills?.get(p.id)),
      })),
    ),
  );
}

const skillColumns = (skill: SkillState | undefined) => ({
  skill_mu: skill?.mu ?? null,
  skill_sigma: skill?.sigma ?? null,
  last_played_at: skill?.lastPlayedAt ?? null,
});

/**
 * Upserts players given as `playerRecords` ($1), of any ladders: one statement for any number.
 * A null estimate leaves the stored one (a close or penalty does not read the estimates).
 */
export const UPSERT_PLAYERS = `
  INSERT INTO ladder_players (ladder, ${PLAYER_COLUMNS})
  SELECT ladder, player, rating, games, wins, losses, draws, rated_games, first_rated_at,
    week_games::json, month_games::json, disconnects, clean_streak, disconnect_penalties, level,
    territory, captures, day_captures::json, skill_mu, skill_sigma, last_played_at
  FROM json_to_recordset($1::json) AS r(ladder text, player text, rating float8,
    games int, wins int, losses int, draws int, rated_games int, first_rated_at bigint, week_games text,
    month_games text, disconnects int, clean_streak int, disconnect_penalties int, level int,
    territory bool, captures int, day_captures text, skill_mu float8, skill_sigma float8,
    last_played_at bigint)
  ON CONFLICT (ladder, player) DO UPDATE SET
    rating = EXCLUDED.rating, games = EXCLUDED.games, wins = EXCLUDED.wins, losses = EXCLUDED.losses,
    draws = EXCLUDED.draws, rated_games = EXCLUDED.rated_games, first_rated_at = EXCLUDED.first_rated_at,
    week_games = EXCLUDED.week_games, month_games = EXCLUDED.month_games, disconnects = EXCLUDED.disconnects,
    clean_streak = EXCLUDED.clean_streak, disconnect_penalties = EXCLUDED.disconnect_penalties,
    level = EXCLUDED.level, territory = EXCLUDED.territory, captures = EXCLUDED.captures,
    day_captures = EXCLUDED.day_captures,
    skill_mu = COALESCE(EXCLUDED.skill_mu, ladder_players.skill_mu),
    skill_sigma = COALESCE(EXCLUDED.skill_sigma, ladder_players.skill_sigma),
    last_played_at = COALESCE(EXCLUDED.last_played_at, ladder_players.last_played_at)`;
