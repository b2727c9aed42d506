// Pure fold throughput: parsed game.finished events folded by LadderFold, no IO, against a
// naive floor in the same run (a Map of ratings and the Elo formula, nothing kept).
// Events are generated and parsed in slices of 2,000 (a replay batch) outside the timed part, so the process
// holds what a replay or a rebuild holds (one slice of events and the fold), not a million
// parsed events: a heap of those makes every full collection cost a second, which no real run
// pays. Prints events/s and CPU per event (all threads, so the collector's helpers count) for
// each rule set, with the load average: on a shared 2-core machine compare the ratio to the
// naive loop, measured in the same run.
// Run: npm run build && node --max-semi-space-size=64 dist/bench/fold.bench.js [events=1000000] [ladder|all=igame-gomoku]
// (bin/ranking.js gives replay and rebuild that semi-space flag too.)
import { loadavg } from 'node:os';
import { type GameFinished, parseEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { BUILT_IN_LADDERS, type LadderConfig, LadderFold } from '@ranking/rating';

const total = Number(process.argv[2] ?? 1_000_000);
const which = process.argv[3] ?? 'igame-gomoku';
const SLICE = 2_000;
const ladders = which === 'all' ? BUILT_IN_LADDERS : BUILT_IN_LADDERS.filter((l) => l.id === which);
if (ladders.length === 0) throw new Error(`no built-in ladder ${which}`);

/** The ladder's finished games, parsed, a slice at a time. */
function* slices(ladder: LadderConfig): Generator<GameFinished[]> {
  let slice: GameFinished[] = [];
  let count = 0;
  const lines = generateEvents({
    seed: 7,
    events: total * 3,
    ladders: [ladder],
    badShare: 0,
    correctionShare: 0,
    days: 60,
  });
  for (const line of lines) {
    const parsed = parseEvent(line);
    if (!parsed.ok || parsed.event.type !== 'game.finished') continue;
    slice.push(parsed.event);
    if (++count === total || slice.length === SLICE) {
      yield slice;
      slice = [];
      if (count === total) return;
    }
  }
  if (slice.length > 0) yield slice;
}

interface Run {
  events: number;
  cpuMicros: number;
  wallNanos: bigint;
}

/** Times `fold` over every slice; only the folding counts. */
function timed(ladder: LadderConfig, fold: (games: readonly GameFinished[]) => void): Run {
  const run: Run = { events: 0, cpuMicros: 0, wallNanos: 0n };
  for (const slice of slices(ladder)) {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    fold(slice);
    run.wallNanos += process.hrtime.bigint() - started;
    const used = process.cpuUsage(cpu);
    run.cpuMicros += used.user + used.system;
    run.events += slice.length;
  }
  return run;
}

/** The floor: two ratings looked up, the Elo formula, two ratings stored. */
function naive(ratings: Map<string, number>, start: number) {
  return (games: readonly GameFinished[]) => {
    for (const g of games) {
      const a = g.players[0]!;
      const b = g.players[1]!;
      const ra = ratings.get(a.id) ?? start;
      const rb = ratings.get(b.id) ?? start;
      const expected = 1 / (10 ** ((rb - ra) / 400) + 1);
      const score = a.result === 'win' ? 1 : a.result === 'draw' ? 0.5 : 0;
      ratings.set(a.id, Math.floor(ra + 32 * (score - expected) + 0.5));
      ratings.set(b.id, Math.floor(rb + 32 * (expected - score) + 0.5));
    }
  };
}

const rate = (r: Run) => Math.round(r.events / (Number(r.wallNanos) / 1e9));
const perEvent = (r: Run) => r.cpuMicros / r.events;

for (const ladder of ladders) {
  for (let round = 1; round <= 3; round++) {
    const fold = new LadderFold(ladder);
    const run = timed(ladder, (games) => {
      for (const game of games) fold.evolve(game);
    });
    const floor = timed(ladder, naive(new Map(), ladder.startRating));
    console.log(
      `${ladder.id} (${fold.rules.name}) round ${round}: ${run.events} games, ` +
        `fold ${rate(run).toLocaleString('en')} events/s (CPU ${perEvent(run).toFixed(3)} µs/event), ` +
        `naive ${rate(floor).toLocaleString('en')} events/s (CPU ${perEvent(floor).toFixed(3)} µs/event), ` +
        `fold/naive CPU ${(perEvent(run) / perEvent(floor)).toFixed(1)}x; ` +
        `${fold.players.size} players, ${fold.games} game records, load ${loadavg()[0]!.toFixed(2)}`,
    );
  }
}
