// How well the skill estimate (ADR 19) knows the players, against the official rating, on a
// stream whose players have true strengths (the generator's strengthSpread): per ladder,
//   - Spearman's rank correlation between true strength and (a) the official rating (what the
//     board ranks by), (b) the estimate's mean mu (and mu − 3σ beside it), over the players
//     with at least 15 games;
//   - the log loss of the predicted chance of the side that won, over the decisive games of two
//     sides in the second half of the stream: the estimate's winProbabilities from the
//     estimates before the game (the rating model's own Plackett-Luce chance; openskill's
//     predictWin on the same estimates beside it), the official Elo expectation where the rule
//     set has one (its first-move offset included), and a constant 0.5 (ln 2 = 0.693).
// The stream is the generator's with its usual shares of bad lines and corrections, and the
// maintenance service's period closes (i.Game's inactivity penalties, xinbo's daily levels).
// Deterministic: the same arguments print the same figures.
// Run: npm run build && npm run bench:skill-quality -- [events=300000] [spread=200] [seed=19]
import { type GameResult, parseEvent } from '@ranking/contracts';
import { generateEvents, trueStrengths } from '@ranking/generator';
import {
  ladderRegistry,
  openskillWinProbabilities,
  type PlayerChange,
  ReplayEngine,
  type Skill,
  spearman,
  winProbabilities,
} from '@ranking/rating';

const events = Number(process.argv[2] ?? 300_000);
const spread = Number(process.argv[3] ?? 200);
const seed = Number(process.argv[4] ?? 19);
const MIN_GAMES = 15;
/** Chances are clipped this far from 0 and 1 (a sure prediction that fails costs this much). */
const EPSILON = 1e-9;

const options = { seed, events, strengthSpread: spread, closes: true };
const truth = trueStrengths(options);
const engine = new ReplayEngine(ladderRegistry(), { simulate: false, skill: true });

interface LogLoss {
  games: number;
  skill: number;
  predictWin: number;
  elo: number;
  half: number;
}
const losses = new Map<string, LogLoss>();
/** Decisive two-sided games that had no Elo expectation on an Elo ladder (left out of all three). */
let withoutElo = 0;
const loss = (p: number): number => -Math.log(Math.min(1 - EPSILON, Math.max(EPSILON, p)));

const started = process.hrtime.bigint();
let line = 0;
for (const text of generateEvents(options)) {
  const index = line++;
  const result = engine.ingestParsed(parseEvent(text));
  if (index < events / 2 || result.kind !== 'accepted') continue;
  const { event, outcome } = result;
  if (event.type !== 'game.finished' || outcome.status !== 'applied') continue;
  const skill = outcome.skill;
  if (skill === undefined || skill.length !== event.players.length) continue;
  // Results as the game counted (derived ones for card hands; the reports where nothing moved).
  const results: GameResult[] = event.players.map(
    (p, i) => outcome.changes[i]?.result ?? p.result ?? 'draw',
  );
  const winners = results.flatMap((r, i) => (r === 'win' ? [i] : []));
  const losers = results.flatMap((r, i) => (r === 'loss' ? [i] : []));
  if (winners.length === 0 || winners.length + losers.length !== results.length) continue;
  const ladder = engine.ladderFolds.get(event.ladder)!;
  const elo = ladder.rules.name === 'igame-elo' || ladder.rules.name === 'qq-elo';
  const expected = eloExpectation(outcome.changes[winners[0]!]);
  if (elo && expected === null) {
    withoutElo += 1;
    continue;
  }
  const before = (side: number[]): Skill[] => side.map((i) => skill[i]!.before);
  const [pSkill] = winProbabilities([before(winners), before(losers)]);
  const [pOpenskill] = openskillWinProbabilities([before(winners), before(losers)]);
  const sums = losses.get(event.ladder) ?? { games: 0, skill: 0, predictWin: 0, elo: 0, half: 0 };
  sums.games += 1;
  sums.skill += loss(pSkill!);
  sums.predictWin += loss(pOpenskill!);
  sums.half += loss(0.5);
  if (expected !== null) sums.elo += loss(expected);
  losses.set(event.ladder, sums);
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;

/** The winner's Elo expectation as the official rule set computed it, when it did. */
function eloExpectation(change: PlayerChange | undefined): number | null {
  return change?.why.kind === 'elo' ? change.why.expected : null;
}

const fmt = (x: number | null, digits = 3): string => (x === null ? '  n/a' : x.toFixed(digits));
console.log(
  `skill quality: ${events.toLocaleString('en')} events (seed ${seed}, strength spread ${spread} Elo points), ` +
    `generated and folded with the estimate in ${seconds.toFixed(1)} s`,
);
console.log(
  `${'ladder'.padEnd(20)} ${'rule set'.padEnd(13)} ${'players'.padStart(7)}  ` +
    `ρ official  ρ mu    ρ mu-3σ | ${'games'.padStart(6)}  loss skill  (predictWin)  loss Elo  loss 0.5`,
);
for (const [id, fold] of engine.ladderFolds) {
  const strengths = truth[id] ?? {};
  const rows = [...fold.players.values()].filter((p) => p.games >= MIN_GAMES);
  const strength = rows.map((p) => strengths[p.id]!);
  const estimate = rows.map((p) => fold.skill!.skillOf(p.id));
  const official = spearman(
    strength,
    rows.map((p) => p.rating),
  );
  const mu = spearman(
    strength,
    estimate.map((s) => s.mu),
  );
  const ordinal = spearman(
    strength,
    estimate.map((s) => s.mu - 3 * s.sigma),
  );
  const l = losses.get(id);
  const mean = (sum: number) => (l === undefined || l.games === 0 ? null : sum / l.games);
  const hasElo = fold.rules.name === 'igame-elo' || fold.rules.name === 'qq-elo';
  console.log(
    `${id.padEnd(20)} ${fold.rules.name.padEnd(13)} ${String(rows.length).padStart(7)}  ` +
      `${fmt(official).padStart(10)}  ${fmt(mu).padStart(6)}  ${fmt(ordinal).padStart(7)} | ` +
      `${String(l?.games ?? 0).padStart(6)}  ${fmt(mean(l?.skill ?? 0)).padStart(10)}  ` +
      `${`(${fmt(mean(l?.predictWin ?? 0))})`.padStart(12)}  ` +
      `${(hasElo ? fmt(mean(l?.elo ?? 0)) : '    -').padStart(8)}  ${fmt(mean(l?.half ?? 0)).padStart(8)}`,
  );
}
// Where the estimate gains most: ρ by activity (official points need many games to travel).
const BANDS = [
  [MIN_GAMES, 40],
  [40, 150],
  [150, Infinity],
] as const;
console.log(
  `\nby activity, ρ official / ρ mu (players):${BANDS.map(([lo, hi]) => `  ${lo}-${hi === Infinity ? '' : hi - 1} games`.padEnd(24)).join('')}`,
);
for (const [id, fold] of engine.ladderFolds) {
  const strengths = truth[id] ?? {};
  const cells = BANDS.map(([lo, hi]) => {
    const rows = [...fold.players.values()].filter((p) => p.games >= lo && p.games < hi);
    const strength = rows.map((p) => strengths[p.id]!);
    const official = spearman(
      strength,
      rows.map((p) => p.rating),
    );
    const mu = spearman(
      strength,
      rows.map((p) => fold.skill!.skillOf(p.id).mu),
    );
    return `  ${fmt(official, 2)} / ${fmt(mu, 2)} (${rows.length})`.padEnd(24);
  });
  console.log(`${id.padEnd(41)}${cells.join('')}`);
}
if (withoutElo > 0)
  console.log(`(${withoutElo} games on Elo ladders had no Elo expectation and were left out)`);
console.log(
  `ρ: Spearman against true strength over players with >= ${MIN_GAMES} games (official: the board's rating); ` +
    'loss: mean log loss of the chance given to the side that won, decisive games of two sides in the second half',
);
