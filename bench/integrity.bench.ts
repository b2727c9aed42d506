// How well `ranking integrity` finds win-trading (libs/integrity, ADR 35), on streams with
// planted pairs and honest look-alikes whose truth is written apart (libs/generator's
// plantWinTrading), for each seed:
//   - recall: planted pairs flagged, beneficiary first, out of those planted;
//   - precision: flagged pairs that were planted, out of all flagged;
//   - honest look-alikes flagged (friends, rivals, teachers, the elite), which must be none;
//   - the time to analyse the stream from its lines (parse, collect duels, judge), beside a
//     naive pass that only parses the lines (the floor of any analysis of the file).
// The baseline in the same run: the obvious rule, "8 or more games and 85% of the points",
// judged on the same streams.
// The detector's thresholds were chosen on seed 7; the default seeds are others.
// Run: npm run build && npm run bench:integrity -- [events=200000] [seeds=41,42,43]
import { type GameCorrected, type GameFinished } from '@ranking/contracts';
import { plantWinTrading, type PlantedTruth } from '@ranking/generator';
import { DuelCollector, type Duel, winTradingSuspects } from '@ranking/integrity';

const events = Number(process.argv[2] ?? 200_000);
const seeds = (process.argv[3] ?? '41,42,43').split(',').map(Number);

interface Scored {
  recall: number;
  precision: number;
  flagged: number;
  lookAlikesFlagged: string[];
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

function score(truth: PlantedTruth, flagged: readonly (readonly [string, string])[]): Scored {
  const planted = new Map(truth.planted.map((p) => [pairKey(p.beneficiary, p.feeder), p]));
  const lookAlikes = new Map(truth.lookAlikes.map((l) => [pairKey(...l.players), l.kind]));
  let hits = 0;
  const lookAlikesFlagged: string[] = [];
  for (const [beneficiary, feeder] of flagged) {
    const p = planted.get(pairKey(beneficiary, feeder));
    if (p && p.beneficiary === beneficiary) hits++;
    const kind = lookAlikes.get(pairKey(beneficiary, feeder));
    if (kind) lookAlikesFlagged.push(`${kind} ${beneficiary}/${feeder}`);
  }
  return {
    recall: hits / truth.planted.length,
    precision: flagged.length === 0 ? 1 : hits / flagged.length,
    flagged: flagged.length,
    lookAlikesFlagged,
  };
}

/** The obvious rule: a pair with 8 or more games where one took 85% of the points. */
function naiveFlags(duels: readonly Duel[]): [string, string][] {
  const pairs = new Map<string, { a: string; b: string; games: number; aPoints: number }>();
  for (const d of duels) {
    const [x, y] = d.sides;
    const key = pairKey(x.player, y.player);
    const p = pairs.get(key) ?? { a: x.player, b: y.player, games: 0, aPoints: 0 };
    p.games++;
    p.aPoints += x.player === p.a ? x.score : y.score;
    pairs.set(key, p);
  }
  const out: [string, string][] = [];
  for (const p of pairs.values()) {
    if (p.games < 8) continue;
    if (p.aPoints / p.games >= 0.85) out.push([p.a, p.b]);
    else if ((p.games - p.aPoints) / p.games >= 0.85) out.push([p.b, p.a]);
  }
  return out;
}

const fmt = (x: number) => x.toFixed(3);
console.log(`integrity bench: ${events} games a stream, seeds ${seeds.join(', ')}`);
for (const seed of seeds) {
  const stream = plantWinTrading({ seed, events });
  const lines = [...stream.lines()];
  let t = performance.now();
  let parsed = 0;
  for (const line of lines) parsed += (JSON.parse(line) as { id: string }).id.length > 0 ? 1 : 0;
  const parseMs = performance.now() - t;

  t = performance.now();
  const collector = new DuelCollector();
  for (const line of lines) collector.add(JSON.parse(line) as GameFinished | GameCorrected);
  const duels = collector.byLadder().get(stream.truth.ladder) ?? [];
  const suspects = winTradingSuspects(duels);
  const analyseMs = performance.now() - t;

  const ours = score(
    stream.truth,
    suspects.map((s) => s.players),
  );
  const naive = score(stream.truth, naiveFlags(duels));
  console.log(
    `seed ${seed}: ${parsed} lines, ${stream.truth.planted.length} planted, ${stream.truth.lookAlikes.length} look-alikes`,
  );
  console.log(
    `  integrity: recall ${fmt(ours.recall)} precision ${fmt(ours.precision)} flagged ${ours.flagged} look-alikes flagged ${ours.lookAlikesFlagged.length}${ours.lookAlikesFlagged.length ? ` (${ours.lookAlikesFlagged.join(', ')})` : ''}`,
  );
  console.log(
    `  naive 8+ games at 85%: recall ${fmt(naive.recall)} precision ${fmt(naive.precision)} flagged ${naive.flagged} look-alikes flagged ${naive.lookAlikesFlagged.length}`,
  );
  console.log(
    `  time: analysis ${(analyseMs / 1000).toFixed(2)} s (${Math.round(lines.length / (analyseMs / 1000))} lines/s); parse only ${(parseMs / 1000).toFixed(2)} s`,
  );
  const planted = new Set(stream.truth.planted.map((p) => pairKey(p.beneficiary, p.feeder)));
  for (const s of suspects.filter((s) => !planted.has(pairKey(...s.players))).slice(0, 5))
    console.log(`  false: ${s.players.join('/')} z ${s.z} ${s.evidence.join('; ')}`);
  const flagged = new Set(suspects.map((s) => pairKey(...s.players)));
  for (const p of stream.truth.planted.filter(
    (p) => !flagged.has(pairKey(p.beneficiary, p.feeder)),
  ))
    console.log(`  missed: ${p.kind} ${p.beneficiary}/${p.feeder}`);
}
