import type { PeriodCounts, PlayerState } from '@ranking/rating';

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
}

export const PLAYER_COLUMNS =
  'player, rating, games, wins, losses, draws, rated_games, first_rated_at, week_games, month_games, ' +
  'disconnects, clean_streak, disconnect_penalties, level, territory, captures, day_captures';

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

/** Column arrays for one multi-row upsert through unnest (one statement for any number of players). */
export function playerColumns(players: readonly PlayerState[]): unknown[] {
  const json = (c: PeriodCounts) => JSON.stringify(c);
  return [
    players.map((p) => p.id),
    players.map((p) => p.rating),
    players.map((p) => p.games),
    players.map((p) => p.wins),
    players.map((p) => p.losses),
    players.map((p) => p.draws),
    players.map((p) => p.ratedGames),
    players.map((p) => p.firstRatedAt),
    players.map((p) => json(p.weekGames)),
    players.map((p) => json(p.monthGames)),
    players.map((p) => p.disconnects),
    players.map((p) => p.cleanStreak),
    players.map((p) => p.disconnectPenalties),
    players.map((p) => p.level),
    players.map((p) => p.territory),
    players.map((p) => p.captures),
    players.map((p) => json(p.dayCaptures)),
  ];
}

export const UPSERT_PLAYERS = `
  INSERT INTO ladder_players (ladder, ${PLAYER_COLUMNS})
  SELECT $1, * FROM unnest($2::text[], $3::float8[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[],
    $9::bigint[], $10::jsonb[], $11::jsonb[], $12::int[], $13::int[], $14::int[], $15::int[], $16::bool[],
    $17::int[], $18::jsonb[])
  ON CONFLICT (ladder, player) DO UPDATE SET
    rating = EXCLUDED.rating, games = EXCLUDED.games, wins = EXCLUDED.wins, losses = EXCLUDED.losses,
    draws = EXCLUDED.draws, rated_games = EXCLUDED.rated_games, first_rated_at = EXCLUDED.first_rated_at,
    week_games = EXCLUDED.week_games, month_games = EXCLUDED.month_games, disconnects = EXCLUDED.disconnects,
    clean_streak = EXCLUDED.clean_streak, disconnect_penalties = EXCLUDED.disconnect_penalties,
    level = EXCLUDED.level, territory = EXCLUDED.territory, captures = EXCLUDED.captures,
    day_captures = EXCLUDED.day_captures`;
