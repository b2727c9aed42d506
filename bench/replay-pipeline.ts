// The ceiling of `ranking replay`'s pipeline: the parse worker reads, splits, parses and
// validates a file, this thread takes the batches and rebuilds the valid events from their
// tape, as the replay does, but folds nothing. What the replay would reach with a fold that
// cost nothing; bench/replay.bench.sh prints it beside the naive loop. Prints one JSON line like
// bench/naive-replay.ts, with the CPU of the main thread and of the workers apart.
// Run: npm run build && node dist/bench/replay-pipeline.js FILE.ndjson [parse workers=1]
import { parsedLines } from '../apps/cli/src/parsed-lines.js';
import { sampleThreadCpu } from './thread-cpu.js';

const file = process.argv[2];
if (!file) throw new Error('usage: node dist/bench/replay-pipeline.js FILE.ndjson');

const cpu = process.cpuUsage();
const threads = sampleThreadCpu();
const started = process.hrtime.bigint();
let lines = 0;
let valid = 0;
const workers = Number(process.argv[3] ?? 1);
for await (const batch of parsedLines(file, { workers })) {
  for (const outcome of batch.outcomes()) if (outcome.ok) valid++;
  lines += batch.lines;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const used = process.cpuUsage(cpu);
const split = threads();
const perLine = (seconds: number) => Number(((seconds * 1e6) / lines).toFixed(2));
console.log(
  JSON.stringify({
    lines,
    valid,
    workers,
    seconds: Number(seconds.toFixed(3)),
    linesPerSecond: Math.round(lines / seconds),
    cpuMicrosPerLine: Number(((used.user + used.system) / lines).toFixed(2)),
    // Per thread (from /proc, 10 ms ticks): the main thread's hand-over and rebuilding, the
    // parse workers, the garbage collector's and libuv's helper threads.
    mainMicrosPerLine: perLine(split.main),
    workersMicrosPerLine: perLine(split.started),
    helpersMicrosPerLine: perLine(split.others),
  }),
);
