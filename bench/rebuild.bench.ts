// `ranking rebuild` end to end on one big ladder: the event store is filled straight from the
// generator (only the events a fold accepts, as the rating service would have stored them), with
// one annulment appended at its end that covers games from its last tenth on (a change that
// starts there), and snapshots written every SNAPSHOT_EVERY events as the rating service's
// refold thread writes them (`foldFromStore` up to the next position, `LadderSnapshots.save`).
// Then the CLI runs: `--swap --from-start` against empty live tables (read, fold, checksum, write
// the fresh tables, read them back), and two checks that now match: from the newest snapshot the
// annulment leaves usable (the command as it runs) and `--from-start` (the naive baseline: the
// whole log), with their ratio. Beside them, in the same run: the naive floor of the read (one
// COPY of the ladder's payloads and a JSON.parse of each, in one thread, no fold), JSON.parse and
// the fold alone over the payloads in memory, and the CLI's fixed cost (a run that stops at an
// unknown ladder). Prints wall time, events/s, the CLI's CPU and its PostgreSQL backends' CPU per
// event, and the load average.
// Run: npm run build && node --max-semi-space-size=64 dist/bench/rebuild.bench.js [events=250000] [ladder=igame-gomoku] [every=100000]
// (the CLI runs with 64 MB semi-spaces: the in-memory fold then compares)
// BENCH_REUSE_STORE=1 keeps an event store (and its snapshots) a previous run filled (same database).
// Needs PostgreSQL (bash deploy/infra-up.sh). Uses its own database (ranking_bench_rebuild).
import { generateEvents } from '@ranking/generator';
import {
  copyEventPayloads,
  createDataSource,
  EventStoreRepository,
  LadderCounterRepository,
  LadderSnapshots,
  PgLadderStore,
  sqlOf,
} from '@ranking/persistence';
import { type LadderEvent, validateEvent } from '@ranking/contracts';
import { BUILT_IN_LADDERS, foldFromStore, type LadderConfig, LadderFold } from '@ranking/rating';
import type { DataSource } from 'typeorm';
import pg from 'pg';
import {
  benchSetup,
  cpuSeconds,
  fillEventStore,
  freshDatabase,
  loadAverage,
  secondsSince,
  timedCli,
} from './bench-setup.js';

const total = Number(process.argv[2] ?? 250_000);
const ladderId = process.argv[3] ?? 'igame-gomoku';
/** As the rating service's SNAPSHOT_EVERY_EVENTS. */
const every = Number(process.argv[4] ?? 100_000);
const ladder = BUILT_IN_LADDERS.find((l) => l.id === ladderId);
if (!ladder) throw new Error(`no built-in ladder ${ladderId}`);
const { databaseUrl } = benchSetup('rebuild');

const reuse = process.env.BENCH_REUSE_STORE === '1';
const db = reuse ? createDataSource(databaseUrl, 'bench') : await freshDatabase(databaseUrl);
if (reuse) await db.initialize();
const counterRepo = new LadderCounterRepository(sqlOf(db.manager));
let seq = reuse ? ((await counterRepo.activeLadders()).get(ladder.id)?.lastSeq ?? 0) : 0;
if (seq === 0) {
  seq = await fillEventStore(
    db,
    ladder,
    generateEvents({ seed: 5, events: total, ladders: [ladder], days: 120 }),
  );
  console.log(`event store: ${seq} accepted events of ${ladder.id} (of ${total} generated)`);
  seq = await annulLastTenth(db, ladder, seq);
  await writeSnapshots(db, ladder, seq);
} else {
  await db.query('DELETE FROM ladder_players WHERE ladder = $1', [ladder.id]);
  await db.query('DELETE FROM ladder_games WHERE ladder = $1', [ladder.id]);
  await db.query('VACUUM ANALYZE');
  console.log(`event store: ${seq} accepted events of ${ladder.id} (kept from a previous run)`);
}

/**
 * Appends an annulment at the end of the log covering the games of a player of the first game
 * in its last tenth, from that game on: snapshots after that game are not usable any more, as
 * after a live annulment that reaches back that far. Returns the log's new last position.
 */
async function annulLastTenth(db: DataSource, ladder: LadderConfig, last: number): Promise<number> {
  const game = async (order: 'ASC' | 'DESC', after: number) => {
    const [row] = await db.query<{ seq: string; payload: string }[]>(
      `SELECT seq, payload FROM event_store WHERE ladder = $1 AND type = 'game.finished' AND seq > $2
       ORDER BY seq ${order} LIMIT 1`,
      [ladder.id, after],
    );
    const event = JSON.parse(row!.payload) as Extract<LadderEvent, { type: 'game.finished' }>;
    return { seq: Number(row!.seq), event };
  };
  const first = await game('ASC', Math.floor(last * 0.9));
  const latest = await game('DESC', 0);
  const checked = validateEvent({
    id: 'bench-annulment',
    type: 'player.annulled',
    ladder: ladder.id,
    player: first.event.players[0]!.id,
    since: first.event.finishedAt,
    annulledAt: latest.event.finishedAt,
    note: 'rebuild bench: a change in the last tenth',
  });
  if (!checked.ok) throw new Error(`bench annulment: ${checked.rejection.detail}`);
  await db.transaction(async (manager) => {
    const eventStore = new EventStoreRepository(sqlOf(manager));
    const counterRepo = new LadderCounterRepository(sqlOf(manager));
    await eventStore.appendEvents([{ ladder: ladder.id, seq: last + 1, event: checked.event }]);
    await counterRepo.lockLadders([ladder.id]);
    await counterRepo.saveLadders(
      new Map([[ladder.id, { lastSeq: last + 1, accepted: last + 1, lastMessageSeq: last + 1 }]]),
    );
  });
  console.log(
    `annulment at position ${last + 1} (covers ${first.event.players[0]!.id}'s games from position ${first.seq - 1} on, ${(((first.seq - 1) / last) * 100).toFixed(1)} % into the log)`,
  );
  return last + 1;
}

/** Snapshots every `every` events, as the rating service's refold thread writes them. */
async function writeSnapshots(db: DataSource, ladder: LadderConfig, last: number): Promise<void> {
  const ladders = new Map([[ladder.id, ladder]]);
  for (let upTo = every; upTo <= last; upTo += every) {
    const started = process.hrtime.bigint();
    const { fold, from } = await db.transaction('REPEATABLE READ', (manager) =>
      foldFromStore(new PgLadderStore(sqlOf(manager), ladders), ladder, { upTo }),
    );
    const [event] = await db.query<{ event_id: string }[]>(
      'SELECT event_id FROM event_store WHERE ladder = $1 AND seq = $2',
      [ladder.id, upTo],
    );
    const saved = await db.transaction((manager) =>
      new LadderSnapshots(sqlOf(manager)).save(fold, event!.event_id),
    );
    console.log(
      `snapshot at ${upTo} (folded from ${from}): ${(saved.bytes / 1e6).toFixed(1)} MB in ${saved.parts} parts, ` +
        `${secondsSince(started).toFixed(2)} s; load ${loadAverage()}`,
    );
  }
}

/**
 * CPU seconds of the CLI's PostgreSQL backends (its transaction's and its reader thread's),
 * sampled every 50 ms while they live: a backend's last moments before it exits are lost, the
 * other sessions' work on the machine is not counted.
 */
function watchBackends(): () => Promise<number> {
  const seen = new Map<number, number>();
  let stopped = false;
  const sample = async () => {
    const rows: { pid: number }[] = await db.query(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'ranking-rebuild%'",
    );
    for (const { pid } of rows) seen.set(pid, Math.max(seen.get(pid) ?? 0, cpuSeconds(pid)));
  };
  const loop = (async () => {
    while (!stopped) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return [...seen.values()].reduce((sum, cpu) => sum + cpu, 0);
  };
}

const runCli = (args: string[]) => timedCli(['rebuild', ...args], databaseUrl);

const perEvent = (cpu: number) => `${((cpu / seq) * 1e6).toFixed(2)} µs/event`;
const figures = (what: string, seconds: number, cli: number, postgres: number) =>
  console.log(
    `${what}: ${seconds.toFixed(2)} s = ${Math.round(seq / seconds).toLocaleString('en')} events/s; ` +
      `CPU: client ${cli.toFixed(2)} s (${perEvent(cli)}), PostgreSQL ${postgres.toFixed(2)} s (${perEvent(postgres)}); ` +
      `load ${loadAverage()}`,
  );

/** The floor: one COPY of the payloads and a JSON.parse of each, in this thread, no fold. */
async function naiveRead(keep: string[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!
    .pid;
  const pgBefore = cpuSeconds(backend);
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  let events = 0;
  for await (const batch of copyEventPayloads(client, ladder!.id)) {
    keep.push(batch);
    for (let at = 0; at < batch.length; events++) {
      const end = batch.indexOf('\n', at);
      if ((JSON.parse(batch.slice(at, end)) as { id?: unknown }).id === undefined)
        throw new Error('an event without an id');
      at = end + 1;
    }
  }
  await client.query('COMMIT');
  const seconds = secondsSince(started);
  const cpu = process.cpuUsage(cpuBefore);
  const postgres = cpuSeconds(backend) - pgBefore;
  await client.end();
  if (events !== seq) throw new Error(`naive read: ${events} events, expected ${seq}`);
  figures(
    'naive read (COPY + JSON.parse, one thread, no fold)',
    seconds,
    (cpu.user + cpu.system) / 1e6,
    postgres,
  );
}

/**
 * The split of the command's main thread: JSON.parse alone, then JSON.parse and the fold, over
 * payload texts already in memory (the fold's cost is the difference).
 */
function inMemory(batches: readonly string[]): void {
  const cpuOf = (work: () => void) => {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1e6;
  };
  const each = (use: (event: LadderEvent) => void) => () => {
    for (const batch of batches)
      for (let at = 0; at < batch.length;) {
        const end = batch.indexOf('\n', at);
        use(JSON.parse(batch.slice(at, end)) as LadderEvent);
        at = end + 1;
      }
  };
  const parse = cpuOf(each(() => undefined));
  const fold = new LadderFold(ladder!);
  // The one annulment at the log's end re-folds (this fold keeps no log): the fold's cost is
  // that of the other events.
  const both = cpuOf(
    each((event) => {
      if (event.type !== 'player.annulled') fold.evolve(event);
    }),
  );
  console.log(
    `in memory, one thread: JSON.parse ${perEvent(parse)}; JSON.parse + fold ${perEvent(both)} ` +
      `(fold ${perEvent(both - parse)}); load ${loadAverage()}`,
  );
}

const texts: string[] = [];
await naiveRead(texts);
inMemory(texts);
texts.length = 0;
const fixed = await runCli(['--ladder', 'no-such-ladder']);
console.log(
  `CLI fixed cost (start-up to an unknown ladder): ${fixed.seconds.toFixed(2)} s, CPU ${fixed.cpu.toFixed(2)} s; load ${loadAverage()}`,
);
const runs: Record<string, number> = {};
for (const args of [['--swap', '--from-start'], [], ['--from-start']]) {
  const backends = watchBackends();
  const run = await runCli(['--ladder', ladder.id, ...args]);
  runs[args.join(' ')] = run.seconds;
  figures(
    `rebuild ${args.join(' ') || '(check, from the newest usable snapshot)'} whole command`,
    run.seconds,
    run.cpu,
    await backends(),
  );
  process.stdout.write(`${run.output.trimEnd().replace(/^/gm, '  | ')}\n`);
}
const fromSnapshot = runs['']!;
const fromStart = runs['--from-start']!;
console.log(
  `check from the snapshot ${fromSnapshot.toFixed(2)} s, --from-start ${fromStart.toFixed(2)} s: ` +
    `${(fromStart / fromSnapshot).toFixed(1)}x faster (${((fromSnapshot / fromStart) * 100).toFixed(0)} % of the time); load ${loadAverage()}`,
);
await naiveRead();
await db.destroy();
