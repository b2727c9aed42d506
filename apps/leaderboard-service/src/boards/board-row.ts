import {
  isRanked,
  type LadderConfig,
  newPlayer,
  RULE_SETS,
  type PlayerState,
  SKILL_PRIOR,
} from '@ranking/rating';
import type { ListedChange } from '@ranking/contracts';
import type { StandingRow } from '@ranking/persistence';
import type { BoardEntry, MemberChange } from '@ranking/redis';
import type { RankedItem } from './ranked-page.js';

/** Whether a ladder has leaderboards at all (the casual ladder is never ranked). */
export const hasBoard = (ladder: LadderConfig): boolean => ladder.rankedAfter !== null;

/**
 * The store's entry for a standing: ranked per the ladder's eligibility, sorted by rating
 * descending (the score is minus the rating), with a compact row the API decodes. A live row
 * carries the skill estimate after the board fields (two empty fields before the first counted
 * game); numbers are written as JavaScript writes them, so they read back to the same doubles.
 */
export function boardEntry(row: StandingRow, ladder: LadderConfig): BoardEntry {
  return {
    member: row.player,
    score: -row.rating,
    // isRanked reads the rated-game count only: no need to build a whole player per row.
    ranked: isRanked({ ratedGames: row.ratedGames } as PlayerState, ladder),
    data:
      [row.rating, row.games, row.wins, row.losses, row.draws, row.ratedGames, row.level].join(
        '|',
      ) + (row.skill === undefined ? '' : `|${row.skill?.mu ?? ''}|${row.skill?.sigma ?? ''}`),
  };
}

/** A stored row's board fields (rating, games, wins, losses, draws, rated games, level). */
const BOARD_FIELDS = 7;

/**
 * A listed change as its player's row on the live board, from the message alone: the rating
 * after the event and the board standing; with the skill estimate when the event moved it, else
 * the stored row's estimate is kept. A player left without games (a voided only game) leaves
 * the board, as a board read from PostgreSQL has only players who played.
 */
export function memberChange(change: ListedChange, ladder: LadderConfig): MemberChange {
  if (change.standing.games === 0) return { member: change.player, removed: true };
  const { games, wins, losses, draws, ratedGames, level } = change.standing;
  const { player, after: rating, skill } = change;
  const row = { player, rating, games, wins, losses, draws, ratedGames, level };
  const entry = boardEntry(skill === undefined ? row : { ...row, skill }, ladder);
  return change.skill === undefined ? { ...entry, keepAfter: BOARD_FIELDS } : entry;
}

const PRIOR_JSON = JSON.stringify({ mu: SKILL_PRIOR.mu, sigma: SKILL_PRIOR.sigma });

/**
 * The skill estimate a stored live row carries, as JSON text (the prior before the player's
 * first counted game); null for a row written before rows carried it.
 */
export function skillJson(data: string): string | null {
  const f = data.split('|');
  if (f.length < 9) return null;
  if (f[7] === '' || f[8] === '') return PRIOR_JSON;
  return `{"mu":${jsonNumber(f[7])},"sigma":${jsonNumber(f[8])}}`;
}

/**
 * A default player per ladder, reused for every label: only the fields titles and levels read
 * are set on it, and outputFields keeps nothing of it (rule sets are pure).
 */
const scratch = new WeakMap<LadderConfig, PlayerState>();

/**
 * The rule set's title or level for a rating and level, as JSON members to append to a row
 * (`,"title":"…"`, `,"level":3` or nothing), per ladder: boards repeat the same few values.
 */
const labels = new WeakMap<LadderConfig, Map<string, string>>();

function labelJson(ladder: LadderConfig, rating: number, level: number): string {
  let memo = labels.get(ladder);
  if (!memo) labels.set(ladder, (memo = new Map<string, string>()));
  const key = `${rating}|${level}`;
  let label = memo.get(key);
  if (label === undefined) {
    let player = scratch.get(ladder);
    if (!player) scratch.set(ladder, (player = { ...newPlayer('', ladder) }));
    (player as { rating: number }).rating = rating;
    (player as { level: number }).level = level;
    const fields = RULE_SETS[ladder.ruleSet].outputFields(player);
    const members = JSON.stringify({
      ...(typeof fields.title === 'string' ? { title: fields.title } : {}),
      ...(typeof fields.level === 'number' ? { level: fields.level } : {}),
    }).slice(1, -1);
    label = members === '' ? '' : `,${members}`;
    if (memo.size > 100_000) memo.clear();
    memo.set(key, label);
  }
  return label;
}

/** A JSON number as JSON.stringify writes it (null for what JSON cannot hold). */
const jsonNumber = (text: string | undefined): string => {
  const n = Number(text ?? 0);
  return Number.isFinite(n) ? String(n) : 'null';
};

/**
 * A stored row as the API shows it, written straight as JSON text: rank (when given), player,
 * rating, games, wins, losses, draws, rated games, then the rule set's title or level. Pages
 * and player answers write thousands of rows a second; no object is built for them.
 */
export function rowJson(
  rank: number | null,
  player: string,
  data: string,
  ladder: LadderConfig,
): string {
  const f = data.split('|');
  const rating = jsonNumber(f[0]);
  const label = labelJson(ladder, Number(rating), Number(f[6] ?? 0));
  return `{${rank === null ? '' : `"rank":${rank},`}"player":${JSON.stringify(player)},"rating":${rating},"games":${jsonNumber(f[1])},"wins":${jsonNumber(f[2])},"losses":${jsonNumber(f[3])},"draws":${jsonNumber(f[4])},"ratedGames":${jsonNumber(f[5])}${label}}`;
}

/** Ranked items as a JSON array of rows. */
export function rowsJson(items: readonly RankedItem[], ladder: LadderConfig): string {
  let out = '[';
  for (const [i, r] of items.entries())
    out += (i === 0 ? '' : ',') + rowJson(r.rank, r.member, r.data, ladder);
  return `${out}]`;
}
