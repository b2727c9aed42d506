import {
  isRanked,
  type LadderConfig,
  newPlayer,
  RULE_SETS,
  type PlayerState,
} from '@ranking/rating';
import type { StandingRow } from '@ranking/persistence';
import type { BoardEntry } from '@ranking/redis';

/** A row as the API shows it. */
export interface BoardRow {
  readonly player: string;
  readonly rating: number;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  readonly ratedGames: number;
  readonly title?: string;
  readonly level?: number;
}

/** Whether a ladder has leaderboards at all (the casual ladder is never ranked). */
export const hasBoard = (ladder: LadderConfig): boolean => ladder.rankedAfter !== null;

/**
 * The store's entry for a standing: ranked per the ladder's eligibility, sorted by rating
 * descending (the score is minus the rating), with a compact row the API decodes.
 */
export function boardEntry(row: StandingRow, ladder: LadderConfig): BoardEntry {
  return {
    member: row.player,
    score: -row.rating,
    // isRanked reads the rated-game count only: no need to build a whole player per row.
    ranked: isRanked({ ratedGames: row.ratedGames } as PlayerState, ladder),
    data: [row.rating, row.games, row.wins, row.losses, row.draws, row.ratedGames, row.level].join(
      '|',
    ),
  };
}

/**
 * A default player per ladder, reused for every label: only the fields titles and levels read
 * are set on it, and outputFields keeps nothing of it (rule sets are pure).
 */
const scratch = new WeakMap<LadderConfig, PlayerState>();
/** Title or level by rating and level, per ladder: boards repeat the same few values. */
const labels = new WeakMap<LadderConfig, Map<string, { title?: string; level?: number }>>();

function labelOf(ladder: LadderConfig, rating: number, level: number) {
  let memo = labels.get(ladder);
  if (!memo) labels.set(ladder, (memo = new Map<string, { title?: string; level?: number }>()));
  const key = `${rating}|${level}`;
  let label = memo.get(key);
  if (label === undefined) {
    let player = scratch.get(ladder);
    if (!player) scratch.set(ladder, (player = { ...newPlayer('', ladder) }));
    (player as { rating: number }).rating = rating;
    (player as { level: number }).level = level;
    const fields = RULE_SETS[ladder.ruleSet].outputFields(player);
    label = {
      ...(typeof fields.title === 'string' ? { title: fields.title } : {}),
      ...(typeof fields.level === 'number' ? { level: fields.level } : {}),
    };
    if (memo.size > 100_000) memo.clear();
    memo.set(key, label);
  }
  return label;
}

/** Decodes a stored row and adds the rule set's title or level. */
export function decodeRow(player: string, data: string, ladder: LadderConfig): BoardRow {
  return decoded({ player } as Writable<BoardRow>, data, ladder);
}

/** A stored row with its rank first, as board pages list them. */
export function decodeRankedRow(
  rank: number,
  player: string,
  data: string,
  ladder: LadderConfig,
): BoardRow & { readonly rank: number } {
  return decoded({ rank, player } as Writable<BoardRow & { rank: number }>, data, ladder);
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

// Fills the row in place, in the answer's field order: pages decode thousands of rows a second.
function decoded<T extends Writable<BoardRow>>(row: T, data: string, ladder: LadderConfig): T {
  const f = data.split('|');
  row.rating = Number(f[0] ?? 0);
  row.games = Number(f[1] ?? 0);
  row.wins = Number(f[2] ?? 0);
  row.losses = Number(f[3] ?? 0);
  row.draws = Number(f[4] ?? 0);
  row.ratedGames = Number(f[5] ?? 0);
  const label = labelOf(ladder, row.rating, Number(f[6] ?? 0));
  if (label.title !== undefined) row.title = label.title;
  if (label.level !== undefined) row.level = label.level;
  return row;
}
