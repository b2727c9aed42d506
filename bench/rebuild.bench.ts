// `ranking rebuild` end to end on one big ladder: the event store is filled straight from the
// generator (only the events a fold accepts, as the rating service would have stored them),
// then the CLI runs twice: `--swap` against empty live tables (read, fold, checksum, write the
// fresh tables, read them back), and a plain check that now matches (read, fold, checksums).
// Prints wall time, events/s, the CLI's and PostgreSQL's CPU per event and the load average.
// Run: npm run build && node dist/bench/rebuild.bench.js [events=250000] [ladder=igame-gomoku]
// Needs PostgreSQL (bash deploy/infra-up.sh). Uses its own database (ranking_bench_rebuild).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { generateEvents } from '@ranking/generator';
import { LadderRepository, sqlOf, type StoredEvent } from '@ranking/persistence';
import { BUILT_IN_LADDERS, ReplayEngine } from '@ranking/rating';
import { benchSetup, freshDatabase, secondsSince } from './bench-setup.js';

const total = Number(process.argv[2] ?? 250_000);
const ladderId = process.argv[3] ?? 'igame-gomoku';
const ladder = BUILT_IN_LADDERS.find((l) => l.id === ladderId);
if (!ladder) throw new Error(`no built-in ladder ${ladderId}`);
const { databaseUrl } = benchSetup('rebuild');

const db = await freshDatabase(databaseUrl);
const repo = new LadderRepository(sqlOf(db.manager));
const engine = new ReplayEngine(new Map([[ladder.id, ladder]]));
let batch: StoredEvent[] = [];
let seq = 0;
for (const line of generateEvents({ seed: 5, events: total, ladders: [ladder], days: 120 })) {
  const result = engine.ingestLine(line);
  if (result.kind !== 'accepted') continue;
  batch.push({ ladder: ladder.id, seq: ++seq, event: result.event });
  if (batch.length === 10_000) {
    await repo.appendEvents(batch);
    batch = [];
  }
}
await repo.appendEvents(batch);
await repo.lockLadders([ladder.id]);
await repo.saveLadders(new Map([[ladder.id, { lastSeq: seq, accepted: seq }]]));
await db.query('VACUUM ANALYZE');
console.log(`event store: ${seq} accepted events of ${ladder.id} (of ${total} generated)`);

/**
 * CPU seconds that PostgreSQL's finished backends used so far: the postmaster's reaped
 * children (the CLI's connections end with it). Other databases' work on the machine counts too.
 */
function postgresCpu(): number {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      if (fields[1] !== '1') continue; // the postmaster: its parent is init
      return (Number(fields[13]) + Number(fields[14])) / 100;
    } catch {
      continue;
    }
  }
  return 0;
}

/** One CLI run under /usr/bin/time: wall seconds, CPU seconds of the CLI (with its re-exec). */
function runCli(args: string[]): Promise<{ seconds: number; cpu: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'cpu %U %S', process.execPath, 'bin/ranking.js', 'rebuild', ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(errors);
      resolve({
        seconds: secondsSince(started),
        cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN,
        output: output + errors.replace(/^cpu .*\n?/m, ''),
      });
    });
  });
}

const perEvent = (cpu: number) => `${((cpu / seq) * 1e6).toFixed(1)} µs/event`;
for (const args of [['--swap'], []]) {
  const pgBefore = postgresCpu();
  const run = await runCli(['--ladder', ladder.id, ...args]);
  const pg = postgresCpu() - pgBefore;
  const rate = Math.round(seq / run.seconds).toLocaleString('en');
  console.log(
    `rebuild ${args.join(' ') || '(check)'}: ${run.seconds.toFixed(2)} s whole command = ${rate} events/s; ` +
      `CPU: CLI ${run.cpu.toFixed(1)} s (${perEvent(run.cpu)}), PostgreSQL ${pg.toFixed(1)} s (${perEvent(pg)}); ` +
      `load ${loadavg()[0]!.toFixed(2)}`,
  );
  process.stdout.write(run.output.replace(/^/gm, '  | '));
}
await db.destroy();
