// A live annulment on one big ladder: how long from producing a `player.annulled` until the
// rating service has re-folded the ladder and committed (the event is in the store), against
// the naive floor of the same run (one COPY of the ladder's payloads and a JSON.parse of each,
// no fold, nothing written). The ladder's event store and its state (players, game records)
// are written straight from a fold of the generated stream, as the service would have left them.
// Run: npm run build && node dist/bench/annul.bench.js [events=200000] [ladder=igame-gomoku]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database and topics.
import { topicLayout } from '@ranking/kafka';
import { generateEvents } from '@ranking/generator';
import { copyEventPayloads, LadderRepository, sqlOf, type StoredEvent } from '@ranking/persistence';
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

const total = Number(process.argv[2] ?? 200_000);
const ladderId = process.argv[3] ?? 'igame-gomoku';
const ladder = BUILT_IN_LADDERS.find((l) => l.id === ladderId);
if (!ladder) throw new Error(`no built-in ladder ${ladderId}`);
const { prefix, topics, databaseUrl, kafka } = benchSetup('annul');
const db = await freshDatabase(databaseUrl);
const repo = new LadderRepository(sqlOf(db.manager));

// The store and the state, from one fold of the stream.
const engine = new ReplayEngine(new Map([[ladder.id, ladder]]), {
  simulate: false,
  keepLogs: new Set(),
});
let seq = 0;
let batch: StoredEvent[] = [];
const gamesOf = new Map<string, number>();
let first = '';
let last = '';
for (const line of generateEvents({ seed: 5, events: total, ladders: [ladder], days: 120 })) {
  const result = engine.ingestLine(line);
  if (result.kind !== 'accepted') continue;
  const event = result.event;
  if (event.type === 'game.finished') {
    for (const p of event.players) gamesOf.set(p.id, (gamesOf.get(p.id) ?? 0) + 1);
    first ||= event.finishedAt;
    last = event.finishedAt;
  }
  batch.push({ ladder: ladder.id, seq: ++seq, event });
  if (batch.length === 10_000) {
    await repo.appendEvents(batch);
    batch = [];
  }
}
await repo.appendEvents(batch);
const fold = engine.ladderFolds.get(ladder.id)!;
const players = fold.changedPlayers();
for (let i = 0; i < players.length; i += 10_000)
  await repo.upsertPlayers(ladder.id, players.slice(i, i + 10_000));
const games = [...fold.gameRows()];
for (let i = 0; i < games.length; i += 25_000)
  await repo.insertGames(ladder.id, games.slice(i, i + 25_000));
await repo.lockLadders([ladder.id]);
await repo.saveLadders(
  new Map([[ladder.id, { lastSeq: seq, accepted: seq, lastMessageSeq: seq }]]),
);
await db.query('VACUUM ANALYZE');
console.log(
  `ladder ${ladder.id}: ${seq} stored events, ${players.length} players, ${games.length} game records; load ${loadAverage()}`,
);

/** The floor: one COPY of the payloads and a JSON.parse of each, in this thread, no fold. */
async function naiveRead(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = process.hrtime.bigint();
  let n = 0;
  for await (const text of copyEventPayloads(client, ladder!.id))
    for (const line of text.split('\n')) if (line) n += JSON.parse(line) === null ? 0 : 1;
  await client.end();
  // The store holds the bench's warm-up event and the annulment too.
  if (n !== seq + 2) throw new Error(`naive read saw ${n} of ${seq + 2} events`);
  return secondsSince(started);
}

const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
await admin.disconnect();
// SERVICE_NODE_ARGS profiles the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const nodeArgs = process.env.SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const service = spawnRatingService({ databaseUrl, prefix }, nodeArgs);
const producer = kafka.producer();
await producer.connect();
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
const until = async (want: number) => {
  const deadline = Date.now() + 600_000;
  while ((await stored()) < want) {
    if (Date.now() > deadline) throw new Error(`the service never stored event ${want}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
try {
  // Warm-up: the service is up and consuming once a penalty of nobody is stored.
  await send('warm-up', {
    type: 'player.penalized',
    player: 'warm-up',
    points: -1,
    reason: 'bench warm-up',
    at: last,
  });
  await until(seq + 1);
  const busiest = [...gamesOf].sort((a, b) => b[1] - a[1])[0]![0];
  const since = new Date((Date.parse(first) + Date.parse(last)) / 2).toISOString();
  const cpuBefore = cpuSeconds(service.pid!);
  const started = process.hrtime.bigint();
  await send('annul-bench', {
    type: 'player.annulled',
    player: busiest,
    since,
    annulledAt: last,
    note: 'bench',
  });
  await until(seq + 2);
  const seconds = secondsSince(started);
  const cpu = cpuSeconds(service.pid!) - cpuBefore;
  const moved = await db.query<{ n: string }[]>(
    "SELECT count(*) AS n FROM rating_history WHERE event_id = 'annul-bench'",
  );
  const n = moved[0]!.n;
  console.log(
    `live annulment of ${busiest} (${gamesOf.get(busiest)} games) since ${since}: applied ${seconds.toFixed(2)} s after it was produced ` +
      `(${Math.round(seq / seconds).toLocaleString('en')} events/s of the ladder's log), ${n} players moved, ` +
      `service CPU ${cpu.toFixed(2)} s; load ${loadAverage()}`,
  );
  const naive = await naiveRead();
  console.log(
    `naive read of the same log (COPY + JSON.parse, no fold, nothing written): ${naive.toFixed(2)} s; ` +
      `annulment / naive ${(seconds / naive).toFixed(1)}x; load ${loadAverage()}`,
  );
} finally {
  await producer.disconnect();
  service.kill('SIGTERM');
  await db.destroy();
  const cleanup = kafka.admin();
  await cleanup.connect();
  await cleanup.deleteTopics({ topics: Object.values(topics) });
  await cleanup.disconnect();
}
