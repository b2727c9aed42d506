// Pure fold throughput: pre-parsed igame-elo games folded by LadderFold, no IO.
// Prints wall time and the process's CPU time per event (all threads, so the garbage
// collector's helper threads count too), with the load average: on a shared 2-core machine the
// CPU figure is the one to compare between runs.
// Run: npm run build && node dist/bench/fold.bench.js [events=1000000]
// With V8's default 16 MB semi-spaces about a third of the CPU is the garbage collector copying
// what the fold keeps; `node --max-semi-space-size=64 dist/bench/fold.bench.js` measures the fold
// as `ranking replay` and `ranking rebuild` run it (bin/ranking.js sets that flag).
import { loadavg } from 'node:os';
import { type GameFinished, parseEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { BUILT_IN_LADDERS, LadderFold } from '@ranking/rating';

const total = Number(process.argv[2] ?? 1_000_000);
const igame = BUILT_IN_LADDERS.find((l) => l.id === 'igame-gomoku')!;

const games: GameFinished[] = [];
for (const line of generateEvents({
  seed: 7,
  events: total * 2,
  ladders: [igame],
  badShare: 0,
  correctionShare: 0,
  days: 60,
})) {
  const parsed = parseEvent(line);
  if (parsed.ok && parsed.event.type === 'game.finished') games.push(parsed.event);
  if (games.length === total) break;
}

for (let round = 1; round <= 3; round++) {
  const fold = new LadderFold(igame);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (const game of games) fold.evolve(game);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const cpuPerEvent = (used.user + used.system) / games.length;
  console.log(
    `round ${round}: ${games.length} igame-elo games in ${seconds.toFixed(3)} s = ${Math.round(games.length / seconds).toLocaleString('en')} events/s, CPU ${cpuPerEvent.toFixed(2)} µs/event (${fold.players.size} players, load ${loadavg()[0]!.toFixed(2)})`,
  );
}
