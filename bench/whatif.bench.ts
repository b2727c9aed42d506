// `ranking whatif --from-store` on one big ladder against a naive baseline, in one run. The
// event store is filled straight from the generator (only the events a fold accepts, as the
// rating service would have stored them); the variant starts every player 500 higher (i.Game's
// players then start in the 2100 tier: another K, rescaling), which moves everyone and reorders
// the board a little. Then:
//   whatif    the whole command under /usr/bin/time (start-up, the two folds from the store by
//             `foldFromStore`, one after the other on one connection (no snapshots here: both
//             from the log's start), the report with Knight's tau, the JSON written), and the
//             CLI's fixed cost beside it (a run that stops at an unknown ladder)
//   naive     in this process: the ladder read from the store twice, one COPY and one fold at a
//             time on one thread, and the same report but Kendall tau over every pair (O(n²));
//             above NAIVE_TAU_PLAYERS players on both boards the pairwise count is timed on that
//             many and scaled by n² (printed as an estimate)
// and prints wall time, events/s and the players on the board.
// Run (on demand only: a shared machine takes a small smoke size at most):
//   npm run build && node dist/bench/whatif.bench.js [events=1000000] [players=120000] [ladder=igame-gomoku]
// Needs PostgreSQL (bash deploy/infra-up.sh). Uses its own database (ranking_bench_whatif).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LadderEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { copyEventPayloads } from '@ranking/persistence';
import {
  BUILT_IN_LADDERS,
  kendallTau,
  kendallTauPairwise,
  type LadderConfig,
  LadderFold,
  whatIfReport,
} from '@ranking/rating';
import pg from 'pg';
import {
  benchSetup,
  fillEventStore,
  freshDatabase,
  loadAverage,
  secondsSince,
  timedCli,
} from './bench-setup.js';

const total = Number(process.argv[2] ?? 1_000_000);
const players = Number(process.argv[3] ?? 120_000);
const ladderId = process.argv[4] ?? 'igame-gomoku';
const ladder = BUILT_IN_LADDERS.find((l) => l.id === ladderId);
if (!ladder) throw new Error(`no built-in ladder ${ladderId}`);
const variant: LadderConfig = { ...ladder, startRating: ladder.startRating + 500 };
/** Above this many players on both boards the pairwise tau is timed on a slice and scaled. */
const NAIVE_TAU_PLAYERS = 20_000;
const { databaseUrl } = benchSetup('whatif');

const db = await freshDatabase(databaseUrl);
const seq = await fillEventStore(
  db,
  ladder,
  generateEvents({
    seed: 16,
    events: total,
    ladders: [ladder],
    days: 120,
    playersPerLadder: players,
    closes: true,
  }),
);
console.log(`event store: ${seq} accepted events of ${ladder.id}; load ${loadAverage()}`);

const dir = mkdtempSync(join(tmpdir(), 'whatif-bench-'));
const laddersFile = join(dir, 'variant.json');
writeFileSync(laddersFile, JSON.stringify([{ id: ladder.id, startRating: variant.startRating }]));

const runCli = (args: string[]) => timedCli(['whatif', ...args], databaseUrl);

/** One COPY of the ladder's payloads folded on this thread. */
async function readAndFold(config: LadderConfig): Promise<LadderFold> {
  const fold = new LadderFold(config);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  for await (const batch of copyEventPayloads(client, config.id))
    for (let at = 0; at < batch.length;) {
      const end = batch.indexOf('\n', at);
      fold.evolve(JSON.parse(batch.slice(at, end)) as LadderEvent);
      at = end + 1;
    }
  await client.query('COMMIT');
  await client.end();
  return fold;
}

const rate = (seconds: number) => `${Math.round(seq / seconds).toLocaleString('en')} events/s`;

const fixed = await runCli([
  '--ladder',
  'no-such-ladder',
  '--ladders',
  laddersFile,
  '--from-store',
  '--out',
  join(dir, 'none.json'),
]);
console.log(
  `CLI fixed cost (start-up to an unknown ladder): ${fixed.seconds.toFixed(2)} s, CPU ${fixed.cpu.toFixed(2)} s; load ${loadAverage()}`,
);
const out = join(dir, 'report.json');
const cli = await runCli([
  '--ladder',
  ladder.id,
  '--ladders',
  laddersFile,
  '--from-store',
  '--out',
  out,
]);
if (!existsSync(out)) throw new Error(`whatif wrote no report: ${cli.output}`);
console.log(
  `whatif --from-store, whole command: ${cli.seconds.toFixed(2)} s (${rate(cli.seconds)}), ` +
    `CPU ${cli.cpu.toFixed(2)} s; load ${loadAverage()}`,
);
process.stdout.write(cli.output.replace(/^/gm, '  | '));

let started = process.hrtime.bigint();
const asIs = await readAndFold(ladder);
const changed = await readAndFold(variant);
const folds = secondsSince(started);
started = process.hrtime.bigint();
const report = whatIfReport(asIs, changed);
const reportSeconds = secondsSince(started);
const both = report.players.filter((p) => p.asIs.rank !== null && p.variant.rank !== null);
const x = both.map((p) => p.asIs.rank!);
const y = both.map((p) => p.variant.rank!);
started = process.hrtime.bigint();
const knight = kendallTau(x, y);
const knightSeconds = secondsSince(started);
const slice = Math.min(both.length, NAIVE_TAU_PLAYERS);
started = process.hrtime.bigint();
kendallTauPairwise(x.slice(0, slice), y.slice(0, slice));
const pairwise = secondsSince(started) * (slice === 0 ? 0 : (both.length / slice) ** 2);
const naive = folds + reportSeconds + pairwise;
console.log(
  `naive: ${naive.toFixed(2)} s${slice < both.length ? ' (estimated)' : ''} = two reads and folds on one thread ` +
    `${folds.toFixed(2)} s + report ${reportSeconds.toFixed(2)} s + pairwise tau ${pairwise.toFixed(2)} s` +
    `${slice < both.length ? ` (timed on ${slice.toLocaleString('en')} players, scaled by n²)` : ''}; load ${loadAverage()}`,
);
console.log(
  `board: ${report.summary.players.toLocaleString('en')} players, ${both.length.toLocaleString('en')} on both boards; ` +
    `Knight's tau ${knight?.toFixed(6)} in ${(knightSeconds * 1000).toFixed(1)} ms (the report's: ${report.summary.kendallTau?.toFixed(6)})`,
);
rmSync(dir, { recursive: true, force: true });
await db.destroy();
