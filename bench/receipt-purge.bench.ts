// The receipts' retention purge (ADR 42): N receipts past the retention deleted in batches of
// RECEIPT_PURGE_BATCH, as the leaderboard service deletes them, while a writer inserts a
// receipt at a time as POST /v1/games does: the purge rate, each batch's time, and how long
// the writer waited at worst.
// Run: npm run build && node dist/bench/receipt-purge.bench.js [receipts=2000000]
// Needs the local PostgreSQL. Uses its own database (ranking_bench_receipts).
import {
  dropDatabase,
  IngestReceiptRepository,
  RECEIPT_PURGE_BATCH,
  sqlOf,
} from '@ranking/persistence';
import { benchSetup, freshDatabase, loadAverage, secondsSince as seconds } from './bench-setup.js';

const receipts = Number(process.argv[2] ?? 2_000_000);
const { databaseUrl } = benchSetup('receipts');
const db = await freshDatabase(databaseUrl);

let t = process.hrtime.bigint();
await db.query(
  `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status, received_at)
   SELECT 'gomoku-eu-1:g-' || lpad(g::text, 9, '0'), 'gomoku-eu-1', 'igame-gomoku',
          sha256(g::text::bytea), 'accepted', now() - interval '31 days' - g * interval '1 second'
   FROM generate_series(1, $1::int) g`,
  [receipts],
);
await db.query('ANALYZE ingest_receipts');
const size = async () =>
  (
    await db.query<{ mb: string }[]>(
      "SELECT round(pg_total_relation_size('ingest_receipts') / 1048576.0) AS mb",
    )
  )[0]!.mb;
console.log(
  `seeded ${receipts.toLocaleString('en')} receipts in ${seconds(t).toFixed(1)} s (${await size()} MB with indexes)`,
);

// A writer beside the purge, one receipt a statement, as requests insert them.
let writing = true;
let written = 0;
let worstWriteMs = 0;
const writer = (async () => {
  while (writing) {
    const started = process.hrtime.bigint();
    await db.query(
      `INSERT INTO ingest_receipts (event_id, producer, ladder, digest, status)
       VALUES ($1::text, 'gomoku-eu-1', 'igame-gomoku', sha256(convert_to($1::text, 'UTF8')), 'accepted')`,
      [`fresh-${written++}`],
    );
    worstWriteMs = Math.max(worstWriteMs, seconds(started) * 1000);
  }
})();

const batchMs: number[] = [];
let batchStarted = process.hrtime.bigint();
t = process.hrtime.bigint();
const deleted = await new IngestReceiptRepository(sqlOf(db.manager)).purgeOlderThan(
  30,
  RECEIPT_PURGE_BATCH,
  () => {
    batchMs.push(seconds(batchStarted) * 1000);
    batchStarted = process.hrtime.bigint();
    return true;
  },
);
const purgeSeconds = seconds(t);
writing = false;
await writer;

const sorted = [...batchMs].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log(
  `purged ${deleted.toLocaleString('en')} receipts in ${purgeSeconds.toFixed(1)} s: ` +
    `${Math.round(deleted / purgeSeconds).toLocaleString('en')} receipts/s, ` +
    `${batchMs.length} batches of at most ${RECEIPT_PURGE_BATCH}, ` +
    `batch p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
);
console.log(
  `meanwhile ${written.toLocaleString('en')} single-receipt inserts, the slowest ${worstWriteMs.toFixed(1)} ms; ` +
    `left: ${(await db.query<{ n: string }[]>('SELECT count(*) AS n FROM ingest_receipts'))[0]!.n} receipts ` +
    `(${await size()} MB until vacuumed); load ${loadAverage()}`,
);
await db.destroy();
await dropDatabase(databaseUrl);
