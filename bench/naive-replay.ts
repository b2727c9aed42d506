// The naive floor `ranking replay` is compared with (bench/replay.bench.sh): readline,
// JSON.parse and a Map of Elo ratings, no validation, no rules, one thread. It prints one JSON
// line: lines, players, wall seconds and CPU µs a line.
// Run: npm run build && node dist/bench/naive-replay.js FILE.ndjson
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

interface Game {
  type?: string;
  ladder?: string;
  players?: { id: string; result: string }[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: node dist/bench/naive-replay.js FILE.ndjson');

const cpu = process.cpuUsage();
const started = process.hrtime.bigint();
const ratings = new Map<string, number>();
let lines = 0;
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  lines++;
  let game: Game;
  try {
    game = JSON.parse(line) as Game;
  } catch {
    continue;
  }
  if (game?.type !== 'game.finished' || game.players?.length !== 2) continue;
  const [a, b] = game.players as [{ id: string; result: string }, { id: string; result: string }];
  const keyA = `${game.ladder}/${a.id}`;
  const keyB = `${game.ladder}/${b.id}`;
  const ratingA = ratings.get(keyA) ?? 1500;
  const ratingB = ratings.get(keyB) ?? 1500;
  const expected = 1 / (1 + 10 ** ((ratingB - ratingA) / 400));
  const score = a.result === 'win' ? 1 : a.result === 'draw' ? 0.5 : 0;
  ratings.set(keyA, ratingA + 32 * (score - expected));
  ratings.set(keyB, ratingB - 32 * (score - expected));
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    lines,
    players: ratings.size,
    seconds: Number(seconds.toFixed(3)),
    linesPerSecond: Math.round(lines / seconds),
    cpuMicrosPerLine: Number(((used.user + used.system) / lines).toFixed(2)),
  }),
);
