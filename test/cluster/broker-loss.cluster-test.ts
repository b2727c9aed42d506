import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { type ProcessEnd, RatingScenario, type ServiceProcess, waitFor } from '@ranking/testing';

/**
 * Issue 41 item 1, ADR 37: a consumer whose brokers go away must not hang its process. The
 * built rating service fetches a backlog from the three-node cluster (`kafka.sh --brokers 3`,
 * through deploy/test-brokers.sh); its brokers are SIGKILLed one after another, in each order,
 * while it runs. Through the outage the process must keep answering `/health/live`, use a
 * bounded share of one core (kafkajs 2.2.4 unpatched spun one core at 100 % in its fetcher
 * loop, answering neither HTTP nor SIGTERM), and exit by itself on SIGTERM.
 */
const run = promisify(execFile);
const cluster = (...args: string[]) =>
  run('bash', ['deploy/kafka/kafka.sh', '--brokers', '3', ...args]);
const NODES = [1, 2, 3] as const;
/** Each order starts with another node; the others follow in turn. */
const ORDERS = NODES.map((first) => [first, ...NODES.filter((n) => n !== first)]);
/** How long each node's loss is left to the service before the next node goes. */
const STEP_MS = 8_000;
/** A behaviour bound, not a speed figure: the spin used 100 % of a core. */
const MAX_CPU_SHARE = 0.5;
/** The service's own shutdown deadline is 9 s (SHUTDOWN_DEADLINE_MS); this is its slack. */
const EXIT_WITHIN_MS = 30_000;
const CLOCK_TICKS_PER_SECOND = 100;

/** The CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) in parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** One GET of `/health/live`: its status, or why there was none within `ms`. */
async function live(base: string, ms = 5_000): Promise<string> {
  try {
    const res = await fetch(`${base}/health/live`, { signal: AbortSignal.timeout(ms) });
    await res.arrayBuffer();
    return String(res.status);
  } catch (error) {
    return `no answer (${(error as Error).name})`;
  }
}

/** SIGTERM, and how the process ended; SIGKILL (and null) if it had not exited within `ms`. */
async function terminate(service: ServiceProcess, ms: number): Promise<ProcessEnd | null> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = service.stop('SIGTERM');
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  const end = await Promise.race([stopped, late]);
  clearTimeout(timer);
  if (end === null) {
    await service.stop('SIGKILL');
    await stopped;
  }
  return end;
}

describe('broker loss (three-node cluster): no consumer hangs its process', () => {
  const world = new RatingScenario(ladderRegistry());
  beforeAll(() => world.setUp());
  afterAll(async () => {
    await Promise.all(NODES.map((n) => cluster('start-node', String(n)).catch(() => undefined)));
    await world.tearDown();
  });

  it.each(ORDERS)(
    'when nodes %i, %i and %i are SIGKILLed in turn under the rating service, then it answers /health/live, its CPU stays bounded and SIGTERM ends it',
    async (...order: number[]) => {
      // A backlog, so the service is fetching from every node when they go.
      const lines = [
        ...generateEvents({ seed: 41 + order[0]!, events: 4_000, closes: false, days: 5 }),
      ];
      await world.produce(lines);
      const before = await world.storedEvents();
      const rating = world.service();
      rating.start();
      try {
        const base = await rating.url();
        await waitFor(async () => (await world.storedEvents()) > before, {
          timeout: 120_000,
          interval: 100,
          what: `progress before the first loss (service ${rating.status()})`,
        });
        const pid = rating.pid();
        if (pid === undefined) throw new Error(`the service ${rating.status()}`);
        const answers: string[] = [];
        let probing = true;
        const prober = (async () => {
          while (probing) {
            answers.push(await live(base));
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        })();
        const cpuBefore = await cpuSeconds(pid);
        const started = performance.now();
        for (const node of order) {
          await cluster('kill-node', String(node));
          await new Promise((resolve) => setTimeout(resolve, STEP_MS));
        }
        const wallSeconds = (performance.now() - started) / 1000;
        const cpu = (await cpuSeconds(pid)) - cpuBefore;
        probing = false;
        await prober;
        const end = await terminate(rating, EXIT_WITHIN_MS);
        const seen = `order ${order.join(',')}: CPU ${cpu.toFixed(2)} s in ${wallSeconds.toFixed(1)} s, /health/live answers ${answers.join(' ')}, SIGTERM end ${JSON.stringify(end)}`;
        console.log(seen);
        if (!(cpu < MAX_CPU_SHARE * wallSeconds) || end === null || end.code !== 0)
          console.error(rating.outputTail(6000));
        expect({ seen, cpuShare: cpu / wallSeconds < MAX_CPU_SHARE }).toMatchObject({
          cpuShare: true,
        });
        expect({ seen, answers: answers.filter((a) => !/^\d{3}$/.test(a)) }).toMatchObject({
          answers: [],
        });
        expect(answers.length).toBeGreaterThan(order.length * 4);
        // Exited by itself (0, or 1 when its shutdown deadline cut a broker wait short).
        expect({ seen, end }).toMatchObject({ end: { signal: null } });
      } finally {
        await rating.stop('SIGKILL');
        await Promise.all(order.map((n) => cluster('start-node', String(n))));
      }
    },
    300_000,
  );
});
