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

/** A default player per ladder: rows only override the fields titles and levels read. */
const templates = new WeakMap<LadderConfig, PlayerState>();
/** Title or level by rating and level, per ladder: boards repeat the same few values. */
const labels = new WeakMap<LadderConfig, Map<string, { title?: string; level?: number }>>();

function labelOf(ladder: LadderConfig, rating: number, level: number) {
  let memo = labels.get(ladder);
  if (!memo) labels.set(ladder, (memo = new Map<string, { title?: string; level?: number }>()));
  const key = `${rating}|${level}`;
  let label = memo.get(key);
  if (label === undefined) {
    let template = templates.get(ladder);
    if (!template) templates.set(ladder, (template = newPlayer('', ladder)));
    const fields = RULE_SETS[ladder.ruleSet].outputFields({ ...template, rating, level });
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
  const [rating = 0, games = 0, wins = 0, losses = 0, draws = 0, ratedGames = 0, level = 0] = data
    .split('|')
    .map(Number);
  return {
    player,
    rating,
    games,
    wins,
    losses,
    draws,
    ratedGames,
    ...labelOf(ladder, rating, level),
  };
}
