// A weekly and a daily close over one i.Game ladder of many players, through the running
// rating service: time from produce to committed, the history rows written, the service's RSS.
// Run: npm run build && node dist/bench/close.bench.js [players=1000000]
// Needs the local services (bash deploy/infra-up.sh). Uses its own database and topics.
import { topicLayout } from '@ranking/kafka';
import { dropDatabase } from '@ranking/persistence';
import {
  benchSetup,
  freshDatabase,
  secondsSince as seconds,
  peakRssKb,
  spawnRatingService,
} from './bench-setup.js';

const players = Number(process.argv[2] ?? 1_000_000);
const LADDER = 'igame-gomoku';
const { prefix, topics, databaseUrl, kafka } = benchSetup('close');
const db = await freshDatabase(databaseUrl);

// Players who have played before the week (first rated game in October) with 0–11 rated games
// in the closing week 2026-W48 and the month: about half fall short of the weekly quota of 7.
let t = process.hrtime.bigint();
await db.query(
  `INSERT INTO ladder_players (ladder, player, rating, games, wins, losses, draws, rated_games,
     first_rated_at, week_games, month_games, disconnects, clean_streak, disconnect_penalties,
     level, territory, captures, day_captures)
   SELECT $1, 'p' || lpad(g::text, 7, '0'), 1500 + (g % 1000), 30, 15, 14, 1, 30,
     $2::bigint, json_build_array(json_build_object('key', '2026-W48', 'count', g % 12)),
     json_build_array(json_build_object('key', '2026-11', 'count', g % 12)), 0, 0, 0, 25, false, 0, '[]'
   FROM generate_series(1, $3::int) g`,
  [LADDER, Date.parse('2026-10-01T12:00:00+08:00'), players],
);
await db.query(`INSERT INTO ladders (ladder, last_seq, accepted) VALUES ($1, 0, 0)`, [LADDER]);
await db.query('ANALYZE ladder_players');
console.log(`seeded ${players.toLocaleString('en')} players in ${seconds(t).toFixed(1)} s`);

const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: topicLayout(prefix), waitForLeaders: true });
const child = spawnRatingService({ databaseUrl, prefix });
let peakKb = 0;
const sample = () => {
  peakKb = Math.max(peakKb, peakRssKb(child.pid!));
};
const producer = kafka.producer();
await producer.connect();

async function close(period: 'weekly' | 'daily', key: string, start: string, end: string) {
  const event = { id: `period.closed:${LADDER}:${period}:${key}`, type: 'period.closed' };
  const value = JSON.stringify({ ...event, ladder: LADDER, period, key, start, end });
  const before: { n: string }[] = await db.query('SELECT last_seq AS n FROM ladders');
  const started = process.hrtime.bigint();
  await producer.send({ topic: topics.ladderEvents, messages: [{ key: LADDER, value }] });
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    sample();
    const rows: { n: string }[] = await db.query('SELECT last_seq AS n FROM ladders');
    if (Number(rows[0]!.n) > Number(before[0]!.n)) break;
  }
  const s = seconds(started);
  const history: { n: string }[] = await db.query(
    'SELECT count(*) AS n FROM rating_history WHERE event_id = $1',
    [event.id],
  );
  console.log(
    `${period} close ${key}: ${s.toFixed(1)} s from produce to committed, ` +
      `${Number(history[0]!.n).toLocaleString('en')} players moved (one history row each)`,
  );
}

// Let the service join its group first (its first batch would otherwise include the wait).
t = process.hrtime.bigint();
await close('daily', '2026-11-28', '2026-11-28T06:00:00+08:00', '2026-11-29T06:00:00+08:00');
console.log(`(first close includes the service start-up: ${seconds(t).toFixed(1)} s)`);
await close('weekly', '2026-W48', '2026-11-23T06:00:00+08:00', '2026-11-30T06:00:00+08:00');
await close('daily', '2026-11-29', '2026-11-29T06:00:00+08:00', '2026-11-30T06:00:00+08:00');
console.log(
  `service peak RSS ${(peakKb / 1024).toFixed(0)} MB with ${players.toLocaleString('en')} players in one ladder`,
);

const exited = new Promise((resolve) => child.once('exit', resolve));
child.kill('SIGTERM');
await exited;
await producer.disconnect();
await admin.deleteTopics({ topics: Object.values(topics) });
await admin.disconnect();
await db.destroy();
await dropDatabase(databaseUrl);
