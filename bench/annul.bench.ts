// A live annulment on one big ladder (issue 30): the batch accepts the `player.annulled` and the
// rating service's refold thread re-folds the ladder from its newest usable snapshot and swaps
// it in under a short ladder lock. Measured in one run:
// - `partition blocked`: games on the annulled ladder (its key, so its partition) are produced
//   every TICK_MS from BASELINE_MS before the annulment until AFTER_MS after the swap, each
//   timed from just before its send to its row in the event store (its batch committed, polled
//   every POLL_MS); what the annulment added is the window's longest wait minus the baseline's
//   median, and the baseline window's own longest wait is printed beside it;
// - `annulment complete`: from producing it to its swap (its pending_annulments row gone);
// - `naive read`: one COPY of the ladder's log and a JSON.parse of each payload, the floor.
// The annulled player's covered games are all in the log's last tenth (a cheater caught
// recently). The store and state are written straight from a fold of the generated stream (as
// the service would have left them, skill estimates included); the service then writes the
// ladder's snapshots at start-up (one per SNAPSHOT_EVERY_EVENTS, timed). A second annulment is
// then measured with the snapshots deleted (and none written): the baseline "from the start".
// Run: npm run build && node dist/bench/annul.bench.js [events=1000000] [ladder=igame-gomoku]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database and topics.
import type { ChildProcess } from 'node:child_process';
import type { GameFinished } from '@ranking/contracts';
import { generateEvents, SeededRandom } from '@ranking/generator';
import { topicLayout } from '@ranking/kafka';
import {
  copyEventPayloads,
  EventStoreRepository,
  GameRepository,
  LadderCounterRepository,
  PlayerRepository,
  PgLadderStore,
  sqlOf,
  type StoredEvent,
} from '@ranking/persistence';
import { BUILT_IN_LADDERS, ReplayEngine } from '@ranking/rating';
import pg from 'pg';
import {
  benchSetup,
  cpuSeconds,
  freshDatabase,
  loadAverage,
  secondsSince,
  spawnRatingService,
} from './bench-setup.js';

const total = Number(process.argv[2] ?? 1_000_000);
const ladderId = process.argv[3] ?? 'igame-gomoku';
const ladder = BUILT_IN_LADDERS.find((l) => l.id === ladderId);
if (!ladder) throw new Error(`no built-in ladder ${ladderId}`);
/** A probe game every TICK_MS; the baseline window before the annulment and the tail after it. */
const TICK_MS = 30;
const BASELINE_MS = 10_000;
const AFTER_MS = 2_000;
const POLL_MS = 10;
/** The service of the second annulment writes no snapshot (the configuration's maximum). */
const NO_SNAPSHOTS = '100000000';
const { env, prefix, topics, databaseUrl, kafka } = benchSetup('annul');
const db = await freshDatabase(databaseUrl);
const eventStore = new EventStoreRepository(sqlOf(db.manager));
const gameRepo = new GameRepository(sqlOf(db.manager));
const counterRepo = new LadderCounterRepository(sqlOf(db.manager));
const playerRepo = new PlayerRepository(sqlOf(db.manager));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const fmt = (ms: number) => (ms / 1000).toFixed(3);
console.log(
  `annul bench: ${total} generated events on ${ladder.id}, SNAPSHOT_EVERY_EVENTS ${env.SNAPSHOT_EVERY_EVENTS}; load ${loadAverage()}`,
);

/** The store and the state, from one fold of the stream (skill estimates kept, as the service does). */
async function fillLadder() {
  const engine = new ReplayEngine(new Map([[ladder!.id, ladder!]]), {
    simulate: false,
    keepLogs: new Set(),
    skill: true,
  });
  let seq = 0;
  let batch: StoredEvent[] = [];
  let last = '';
  for (const line of generateEvents({ seed: 5, events: total, ladders: [ladder!], days: 120 })) {
    const result = engine.ingestLine(line);
    if (result.kind !== 'accepted') continue;
    const event = result.event;
    if (event.type === 'game.finished') last = event.finishedAt;
    batch.push({ ladder: ladder!.id, seq: ++seq, event });
    if (batch.length === 10_000) {
      await eventStore.appendEvents(batch);
      batch = [];
    }
  }
  await eventStore.appendEvents(batch);
  const fold = engine.ladderFolds.get(ladder!.id)!;
  const players = fold.changedPlayers();
  for (let i = 0; i < players.length; i += 10_000)
    await playerRepo.upsertPlayers(ladder!.id, players.slice(i, i + 10_000), fold.skill!.players);
  let games = 0;
  let rows: ReturnType<typeof fold.changedGameRows> = [];
  for (const row of fold.gameRows()) {
    rows.push(row);
    if (rows.length === 25_000) {
      await gameRepo.insertGames(ladder!.id, rows);
      games += rows.length;
      rows = [];
    }
  }
  await gameRepo.insertGames(ladder!.id, rows);
  games += rows.length;
  await counterRepo.lockLadders([ladder!.id]);
  await counterRepo.saveLadders(
    new Map([[ladder!.id, { lastSeq: seq, accepted: seq, lastMessageSeq: seq }]]),
  );
  await db.query('VACUUM ANALYZE');
  return { seq, last, players: players.map((p) => p.id), games };
}

const filling = process.hrtime.bigint();
const filled = await fillLadder();
const seq = filled.seq;
console.log(
  `ladder ${ladder.id}: ${seq} stored events, ${filled.players.length} players, ${filled.games} game records, ` +
    `written in ${secondsSince(filling).toFixed(1)} s; load ${loadAverage()}`,
);

/**
 * Two players to annul, with `since` at their first game in the log's last tenth: the players
 * with the most games there (so each moves many opponents). Checked against the store's own
 * `firstCovered`: no game of theirs before the last tenth may be covered.
 */
async function cheaters(): Promise<{ player: string; since: string; first: number }[]> {
  const cut = Math.floor(seq * 0.9);
  const rows = await db.query<{ seq: string; payload: string }[]>(
    `SELECT seq, payload FROM event_store WHERE ladder = $1 AND type = 'game.finished' AND seq > $2 ORDER BY seq`,
    [ladder!.id, cut],
  );
  const late = new Map<string, { games: number; since: string; first: number }>();
  for (const row of rows) {
    const game = JSON.parse(row.payload) as GameFinished;
    for (const p of game.players) {
      const seen = late.get(p.id);
      if (seen) seen.games++;
      else late.set(p.id, { games: 1, since: game.finishedAt, first: Number(row.seq) });
    }
  }
  const store = new PgLadderStore(sqlOf(db.manager), new Map([[ladder!.id, ladder!]]));
  const picked = [...late].sort((a, b) => b[1].games - a[1].games).slice(0, 2);
  const chosen = [];
  for (const [player, { since, first }] of picked) {
    const covered = await store.firstCovered(ladder!.id, {
      player,
      since: Date.parse(since),
      position: seq,
    });
    // firstCovered answers an index from 0; the store's seq counts from 1.
    if (covered === null || covered + 1 !== first)
      throw new Error(`${player} since ${since}: first covered ${covered} is not seq ${first}`);
    chosen.push({ player, since, first });
  }
  return chosen;
}
const annulled = await cheaters();

const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
await admin.disconnect();
const producer = kafka.producer();
await producer.connect();

// The service's log lines (JSON, one a line): swaps and snapshots are read from them.
interface Service {
  readonly child: ChildProcess;
  readonly lines: string[];
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}
const nodeArgs = process.env.SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
function startService(extraEnv: Record<string, string>): Service {
  const lines: string[] = [];
  const child = spawnRatingService({ databaseUrl, prefix }, nodeArgs, {
    env: extraEnv,
    onLine: (line) => {
      let message = line;
      try {
        message = String((JSON.parse(line) as { message: unknown }).message);
      } catch {
        // not a JSON line: kept as it is
      }
      lines.push(message);
      if (/failed|error/i.test(message)) console.log(`  service: ${message}`);
    },
  });
  return {
    child,
    lines,
    async waitFor(pattern, timeoutMs = 1_800_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const line of lines) {
          const match = pattern.exec(line);
          if (match) return match;
        }
        if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode})`);
        if (Date.now() > deadline) throw new Error(`the service never logged ${pattern}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null) return;
  const exited = new Promise((r) => service.child.once('exit', r));
  service.child.kill('SIGTERM');
  await exited;
}

const stored = async () => {
  const rows = await db.query<{ last_seq: string }[]>(
    'SELECT last_seq FROM ladders WHERE ladder = $1',
    [ladder.id],
  );
  return Number(rows[0]!.last_seq);
};
const send = async (id: string, value: object) =>
  producer.send({
    topic: topics.ladderEvents,
    messages: [{ key: ladder.id, value: JSON.stringify({ id, ladder: ladder.id, ...value }) }],
  });
const until = async (done: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 1_800_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const random = new SeededRandom(30);
let probeNo = 0;
/** Probe game instants: after the log's last game, a second apart. */
const lastMs = Date.parse(filled.last);
const ip = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.${2 + (i % 200)}`;

/** Latencies (ms) of the probe games sent in [from, to), by send time. */
interface Probe {
  readonly sentAt: number;
  storedAt: number | null;
}
const p50 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * One annulment measured: probe games every TICK_MS from BASELINE_MS before it until AFTER_MS
 * after the service logged its swap; each timed to its row in the store.
 */
async function measure(
  label: string,
  service: Service,
  cheater: { player: string; since: string; first: number },
) {
  const probes = new Map<string, Probe>();
  const excluded = new Set(annulled.map((a) => a.player));
  const pool = filled.players.filter((p) => !excluded.has(p));
  const errors: unknown[] = [];
  const sendProbe = () => {
    const n = ++probeNo;
    const [a, b] = [random.int(0, pool.length - 1), random.int(0, pool.length - 2)];
    const second = b >= a ? b + 1 : b;
    const id = `probe-${n}`;
    const winner = random.chance(0.5);
    probes.set(id, { sentAt: now(), storedAt: null });
    send(id, {
      type: 'game.finished',
      gameId: `${ladder!.id}-probe${n}`,
      finishedAt: new Date(lastMs + n * 1000).toISOString(),
      moves: 40,
      reason: 'five',
      players: [
        {
          id: pool[a],
          result: winner ? 'win' : 'loss',
          side: 'black',
          first: true,
          ip: ip(a),
          disconnected: false,
        },
        {
          id: pool[second],
          result: winner ? 'loss' : 'win',
          side: 'white',
          first: false,
          ip: ip(second),
          disconnected: false,
        },
      ],
    }).catch((error: unknown) => errors.push(error));
  };
  // The store, polled: each probe's commit, the annulment's seq and its pending row.
  let lastSeen = await stored();
  let annulmentSeq: number | null = null;
  let annulmentStoredAt: number | null = null;
  let swappedAt: number | null = null;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const rows = await db.query<{ seq: string; event_id: string }[]>(
        'SELECT seq, event_id FROM event_store WHERE ladder = $1 AND seq > $2 ORDER BY seq',
        [ladder!.id, lastSeen],
      );
      const seen = now();
      for (const row of rows) {
        lastSeen = Number(row.seq);
        const probe = probes.get(row.event_id);
        if (probe) probe.storedAt = seen;
        if (row.event_id === `annul-${label}`) {
          annulmentSeq = lastSeen;
          annulmentStoredAt = seen;
        }
      }
      if (annulmentSeq !== null && swappedAt === null) {
        const pending = await db.query<unknown[]>(
          'SELECT 1 FROM pending_annulments WHERE ladder = $1 AND seq = $2',
          [ladder!.id, annulmentSeq],
        );
        if (pending.length === 0) swappedAt = now();
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();
  const ticker = setInterval(sendProbe, TICK_MS);
  await new Promise((r) => setTimeout(r, BASELINE_MS));
  const cpuBefore = cpuSeconds(service.child.pid!);
  const swapsBefore = service.lines.filter((l) => l.includes('swapped in at position')).length;
  const sentAnnulment = now();
  await send(`annul-${label}`, {
    type: 'player.annulled',
    player: cheater.player,
    since: cheater.since,
    annulledAt: new Date(lastMs).toISOString(),
    note: 'bench',
  });
  await until(() => swappedAt !== null, `the annulment ${label} swapped in`);
  const complete = swappedAt! - sentAnnulment;
  // The thread logs the swap after it has saved the snapshot of the re-fold too.
  await until(
    () => service.lines.filter((l) => l.includes('swapped in at position')).length > swapsBefore,
    'the swap logged',
  );
  await new Promise((r) => setTimeout(r, AFTER_MS));
  clearInterval(ticker);
  const cpu = cpuSeconds(service.child.pid!) - cpuBefore;
  await until(() => [...probes.values()].every((p) => p.storedAt !== null), 'every probe stored');
  polling = false;
  await poller;
  if (errors.length > 0) throw new Error(`probe sends failed: ${String(errors[0])}`);
  const swapLine = service.lines.filter((l) => l.includes('swapped in at position')).at(-1)!;
  const before: number[] = [];
  const during: number[] = [];
  for (const p of probes.values())
    (p.sentAt < sentAnnulment ? before : during).push(p.storedAt! - p.sentAt);
  const typical = p50(before);
  const during50 = p50(during);
  const blocked = Math.max(...during) - typical;
  const moved = await db.query<{ n: string }[]>(
    'SELECT count(*) AS n FROM rating_history WHERE event_id = $1',
    [`annul-${label}`],
  );
  console.log(
    `[${label}] annulment of ${cheater.player} since ${cheater.since}: its first covered game is seq ${cheater.first} ` +
      `of ${seq} (${((cheater.first / seq) * 100).toFixed(1)} % into the log), stored at seq ${annulmentSeq}, ` +
      `in the store ${fmt(annulmentStoredAt! - sentAnnulment)} s after it was produced; ${moved[0]!.n} history rows`,
  );
  const from = Number(/re-folded from (\d+) /.exec(swapLine)?.[1]);
  console.log(
    `[${label}] the re-fold started at ${from === 0 ? "the log's start (no usable snapshot)" : `the snapshot at position ${from}`}, ` +
      `${cheater.first - from} events before the first covered game`,
  );
  console.log(`[${label}] service: ${swapLine}`);
  console.log(
    `[${label}] probes on its partition every ${TICK_MS} ms: baseline (${before.length} games, ${BASELINE_MS / 1000} s before): ` +
      `p50 ${fmt(typical)} s, max ${fmt(Math.max(...before))} s; from the annulment until ${AFTER_MS / 1000} s ` +
      `after its swap was logged (${during.length} games): p50 ${fmt(during50)} s, max ${fmt(Math.max(...during))} s`,
  );
  console.log(
    `[${label}] partition blocked: ${fmt(blocked)} s (window max ${fmt(Math.max(...during))} s - baseline p50 ${fmt(typical)} s)`,
  );
  console.log(
    `[${label}] annulment complete: ${fmt(complete)} s (produced -> its pending row gone); ` +
      `service CPU meanwhile and after ${cpu.toFixed(2)} s; load ${loadAverage()}`,
  );
  return { complete: complete / 1000, blocked: blocked / 1000 };
}

/** The floor: one COPY of the payloads and a JSON.parse of each, in this thread, no fold. */
async function naiveRead(): Promise<{ seconds: number; events: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = process.hrtime.bigint();
  let n = 0;
  for await (const text of copyEventPayloads(client, ladder!.id))
    for (const line of text.split('\n')) if (line) n += JSON.parse(line) === null ? 0 : 1;
  const seconds = secondsSince(started);
  await client.end();
  const want = await stored();
  if (n !== want) throw new Error(`naive read saw ${n} of ${want} events`);
  return { seconds, events: n };
}

let service: Service | null = null;
try {
  // Phase 1: the service as deployed writes the ladder's snapshots at start-up, one per
  // SNAPSHOT_EVERY_EVENTS, and warms up (a penalty of nobody stored).
  const every = env.SNAPSHOT_EVERY_EVENTS;
  const due = Math.floor(seq / every);
  const starting = process.hrtime.bigint();
  service = startService({});
  await send('warm-up', {
    type: 'player.penalized',
    player: 'warm-up',
    points: -1,
    reason: 'bench warm-up',
    at: filled.last,
  });
  await until(async () => (await stored()) >= seq + 1, 'the warm-up stored');
  if (due > 0) await service.waitFor(new RegExp(`snapshot at position ${due * every} `));
  const startup = secondsSince(starting);
  const snapshots = await db.query<{ position: string; bytes: string; parts: number }[]>(
    'SELECT position, bytes, parts FROM ladder_snapshots WHERE ladder = $1 ORDER BY position',
    [ladder.id],
  );
  const took = new Map(
    service.lines.flatMap((l) => {
      const m = /snapshot at position (\d+) \(([\d.]+) s\)/.exec(l);
      return m ? [[Number(m[1]), m[2]!] as const] : [];
    }),
  );
  console.log(
    `start-up: ${snapshots.length} snapshots written by the service in ${startup.toFixed(1)} s ` +
      `(from its spawn to the last one logged); load ${loadAverage()}`,
  );
  for (const s of snapshots)
    console.log(
      `  snapshot at ${s.position}: ${(Number(s.bytes) / 1e6).toFixed(1)} MB in ${s.parts} parts, written in ${took.get(Number(s.position)) ?? '?'} s`,
    );
  const withSnapshots = await measure('snapshots', service, annulled[0]!);

  // Phase 2: the same store without snapshots, and a service that writes none meanwhile.
  await stopService(service);
  await db.query('DELETE FROM ladder_snapshots');
  service = startService({ SNAPSHOT_EVERY_EVENTS: NO_SNAPSHOTS });
  const warmed = await stored();
  await send('warm-up-2', {
    type: 'player.penalized',
    player: 'warm-up',
    points: -1,
    reason: 'bench warm-up',
    at: filled.last,
  });
  await until(async () => (await stored()) > warmed, 'the second warm-up stored');
  const fromStart = await measure('from-start', service, annulled[1]!);
  await stopService(service);
  service = null;

  const naive = await naiveRead();
  console.log(
    `naive read: ${naive.seconds.toFixed(3)} s (COPY + JSON.parse of the ladder's ${naive.events} events, no fold, nothing written); load ${loadAverage()}`,
  );
  for (const [label, r] of [
    ['with snapshots', withSnapshots],
    ['from the start', fromStart],
  ] as const)
    console.log(
      `${label}: partition blocked ${r.blocked.toFixed(3)} s (target <= 1 s), annulment complete ` +
        `${r.complete.toFixed(3)} s = ${(r.complete / naive.seconds).toFixed(2)} x the naive read (target <= 3 x)`,
    );
} finally {
  if (service) await stopService(service);
  await producer.disconnect();
  await db.destroy();
  const cleanup = kafka.admin();
  await cleanup.connect();
  await cleanup.deleteTopics({ topics: Object.values(topics) });
  await cleanup.disconnect();
}
