// Rating-history rows in words: what happened, to whom, and what it did to the rating.
// A sentence is a list of parts; a part with `name: true` is a player's id or a Chinese title,
// which the page puts in an element with the ladder's lang (its font needs CJK glyphs).

export const MINUS = '\u2212';

const unsigned = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
/** A rating (points may go below 0): half points kept, a real minus. */
const number = (n) => (n < 0 ? `${MINUS}${unsigned(-n)}` : unsigned(n));

/** +14, −30, ±0: a change always carries its sign, with a real minus. */
export const signed = (n) => (n > 0 ? `+${unsigned(n)}` : n < 0 ? `${MINUS}${unsigned(-n)}` : '±0');

/** Xinbo levels as the seeds write them: 14级. */
export const levelText = (level) => `${level}级`;

/** A row's title or level, as the seeds write them; '' when it has neither. */
export const titleOf = (r) =>
  r.title !== undefined && r.title !== null
    ? r.title
    : r.level !== undefined && r.level !== null
      ? levelText(r.level)
      : '';

const ORDINALS = ['1st', '2nd', '3rd'];
const ordinal = (n) => ORDINALS[n - 1] ?? `${n}th`;

const VERB = { win: 'beat', loss: 'lost to', draw: 'drew with' };
const TEAM_VERB = { win: 'won with', loss: 'lost with', draw: 'drew with' };
const MULTI_VERB = { win: 'won against', loss: 'lost against', draw: 'drew against' };

/** Plain text of a sentence (the chart's tooltip). */
export const textOf = (parts) => parts.map((p) => p.text).join('');

/** The players a game moved, each with the rating they had before it: "A (1812), B (1790)". */
function players(list, withRating = true) {
  const parts = [];
  list.forEach((o, i) => {
    if (i > 0) parts.push({ text: ', ' });
    parts.push({ text: o.player, name: true });
    if (withRating && typeof o.before === 'number') parts.push({ text: ` (${number(o.before)})` });
  });
  return parts;
}

/** Who the game was against (and with): the opening words of a game's sentence. */
function gameWords(entry, why) {
  const others = entry.others ?? [];
  const result = entry.result;
  if (why.kind === 'card-points' && why.place !== undefined && why.teamTotal === undefined)
    return [
      { text: `${ordinal(why.place)} of ${others.length + 1}` },
      ...(others.length ? [{ text: ' vs ' }, ...players(others)] : []),
    ];
  // Team games only: otherwise two players who drew (or two losers of three) share a result.
  const teams = why.teamShare !== undefined || why.teamTotal !== undefined;
  if (teams) {
    const mates = others.filter((o) => o.result === result);
    const opponents = others.filter((o) => o.result !== result);
    const place =
      why.kind === 'card-points' && why.place !== undefined
        ? [{ text: `${ordinal(why.place)} of ${others.length + 1}: ` }]
        : [];
    return [
      ...place,
      { text: `${TEAM_VERB[result] ?? 'played with'} ` },
      ...players(mates, false),
      { text: ' vs ' },
      ...players(opponents),
    ];
  }
  if (others.length === 0) return [{ text: `${result ?? 'played'}` }];
  if (others.length === 1) return [{ text: `${VERB[result] ?? 'played'} ` }, ...players(others)];
  return [{ text: `${MULTI_VERB[result] ?? 'played'} ` }, ...players(others)];
}

/** The rule set's reason for the change, in brackets after it. */
function detail(why) {
  switch (why.kind) {
    case 'elo':
      return ` (K ${why.k}, expected ${why.expected.toFixed(2)})`;
    case 'qq-points':
      return ` (gap ${why.gap}, ${why.bracket})`;
    case 'bracket':
      return ` (bracket ${why.levels.replace('-', '–')}级)`;
    case 'captures':
      return ` (captures: ${why.reported} reported, ${why.credited} credited, ${why.valid} counted)`;
    case 'squares': {
      const notes = [`${why.remaining} square${why.remaining === 1 ? '' : 's'} left`];
      if (why.winnerCleared) notes.push('winner cleared');
      if (why.perfect) notes.push('perfect');
      if (why.teamShare !== undefined) notes.push(`team share ${number(why.teamShare)}`);
      return ` (${notes.join(', ')})`;
    }
    case 'card-points': {
      const notes = [`card points ${why.card}`];
      if (why.teamTotal !== undefined) notes.push(`team ${why.teamTotal}`);
      if (why.doubled) notes.push('doubled');
      return ` (${notes.join(', ')})`;
    }
    default:
      return '';
  }
}

/** What a change of the rating did, after the " · ". */
function change(entry, why) {
  if (why.kind === 'gate') return `result only (${why.gate.replace(/\s*>=\s*/, ' ≥ ')})`;
  if (why.kind === 'record-only') return 'record only';
  if (why.kind === 'wrong-kind') return `not rated (not a ${why.stage}-stage game)`;
  return `${signed(entry.delta)}${detail(why)}`;
}

const PENALTIES = {
  'monthly-inactivity': () => 'monthly inactivity',
  'weekly-quota': (why) =>
    why.played !== undefined && why.quota !== undefined
      ? `weekly quota: ${why.played} of ${why.quota} games`
      : 'weekly quota',
};

/**
 * A history entry in words, e.g. "beat 棋手甲 (1812) · +14 (K 32, expected 0.56)";
 * `player` is whose history it is.
 */
export function sentence(entry, player) {
  const why = entry.why ?? { kind: 'record-only' };
  const delta = [{ text: ` · ${signed(entry.delta)}` }];
  switch (why.kind) {
    case 'penalty': {
      const words = PENALTIES[why.reason]?.(why) ?? `penalty (${why.reason})`;
      return [{ text: words }, ...delta];
    }
    case 'level':
      return [
        { text: 'level ' },
        { text: levelText(why.from), name: true },
        { text: ' → ' },
        { text: levelText(why.to), name: true },
        ...(entry.delta !== 0 ? delta : []),
      ];
    case 'correction':
      return [
        { text: why.void ? 'adjudicated: game voided' : 'adjudicated: result corrected' },
        ...delta,
      ];
    case 'annulment':
      return why.player === player
        ? [{ text: `annulled (${entry.event?.reason ?? 'fair-play review'})` }, ...delta]
        : [
            { text: 're-rated: ' },
            { text: why.player, name: true },
            { text: "'s games annulled" },
            ...delta,
          ];
    default:
      return [...gameWords(entry, why), { text: ` · ${change(entry, why)}` }];
  }
}

/** When it happened: the event's own instant (a game's end), else when it was applied. */
export const eventTime = (entry) => entry.event?.at ?? entry.at;
