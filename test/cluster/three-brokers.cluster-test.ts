import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GameResultAdmission, ladderRegistry, ReplayEngine } from '@ranking/rating';
import { ServiceProcess, TEST_ENV, uniqueName, waitFor } from '@ranking/testing';
import { type Admin, ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { gameServerStream, type ResultMessage } from '../intake/game-server-stream.js';
import { LeaderboardWorld } from '../leaderboard/leaderboard-world.js';

/**
 * Runs only against the three-node cluster of `kafka.sh start --brokers 3`, through
 * `npm run test:brokers` (deploy/test-brokers.sh); the normal jest projects do not match it.
 * Issue 41 item 3: every service (intake, rating, maintenance, leaderboard) runs while game
 * servers publish, and one node is SIGKILLed and restarted; once with each node as the victim.
 */
const run = promisify(execFile);
const cluster = (...args: string[]) =>
  run('bash', ['deploy/kafka/kafka.sh', '--brokers', '3', ...args]);
/** Games each case publishes (RANKING_CLUSTER_EVENTS, default 6000). */
const EVENTS = Number(process.env.RANKING_CLUSTER_EVENTS ?? 6_000);
const WAVES = 10;
const ladders = ladderRegistry();
const admission = new GameResultAdmission(ladders);

/**
 * The test's own clients know all three brokers and are patient: any one of them, the first
 * (the seed) included, may be the node that is down.
 */
const patientKafka = (): Kafka =>
  new Kafka({
    clientId: uniqueName('cluster-test'),
    brokers: TEST_ENV.kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 300, maxRetryTime: 3000, retries: 30 },
  });

/** `work` with a fresh admin client, retried (a new client each time) while a node is down. */
async function withAdmin<T>(what: string, work: (admin: Admin) => Promise<T>): Promise<T> {
  return (
    await waitFor(
      async () => {
        const admin = patientKafka().admin();
        await admin.connect();
        try {
          return { value: await work(admin) };
        } finally {
          await admin.disconnect().catch(() => undefined);
        }
      },
      { timeout: 120_000, interval: 500, what },
    )
  ).value;
}

/** Every partition of `topics` has replicas in sync that satisfy `inSync`. */
const isrs = (topics: string[], inSync: (isr: number[]) => boolean) => (admin: Admin) =>
  admin
    .fetchTopicMetadata({ topics })
    .then(({ topics: found }) => found.every((t) => t.partitions.every((p) => inSync(p.isr))));

describe('three-broker cluster (RF 3, min.insync.replicas 2), every service running', () => {
  it('the topics are replicated 3 times with min.insync.replicas=2', async () => {
    const world = new LeaderboardWorld(ladders);
    await world.setUp();
    try {
      const topics = Object.values(world.topics);
      const metadata = await withAdmin('the topics metadata', (admin) =>
        admin.fetchTopicMetadata({ topics }),
      );
      for (const topic of metadata.topics)
        for (const partition of topic.partitions) expect(partition.replicas).toHaveLength(3);
      // A follower joins a new partition's ISR once it has fetched from the leader: ask again.
      await withAdmin('all 3 replicas of every partition in sync', async (admin) => {
        if (!(await isrs(topics, (isr) => isr.length === 3)(admin)))
          throw new Error('an ISR is short');
      });
      // A broker may not know a just-created topic yet (UNKNOWN_TOPIC_OR_PARTITION): ask again.
      const { resources } = await withAdmin('the topics configs', (admin) =>
        admin.describeConfigs({
          includeSynonyms: false,
          resources: topics.map((name) => ({
            type: ConfigResourceTypes.TOPIC,
            name,
            configNames: ['min.insync.replicas'],
          })),
        }),
      );
      for (const resource of resources)
        expect(resource.configEntries.map((e) => [e.configName, e.configValue])).toEqual([
          ['min.insync.replicas', '2'],
        ]);
    } finally {
      await world.tearDown();
    }
  });

  it.each([1, 2, 3])(
    'when node %i is SIGKILLed under load and restarted later, then every game is applied once and the export equals the replay of the stored log',
    async (victim) => {
      const world = new LeaderboardWorld(ladders);
      await world.setUp();
      const gs = await world.addProducer('gs');
      const { messages } = gameServerStream(1000 + victim, EVENTS, 0, gs.name);
      const wave = (i: number) =>
        messages.slice(
          Math.floor((i * messages.length) / WAVES),
          Math.floor(((i + 1) * messages.length) / WAVES),
        );
      const publish = (batch: readonly ResultMessage[]) =>
        waitFor(
          async () => {
            // A retry may send a chunk twice: the same event, which the fold ignores.
            await world.publishResults(gs, batch, patientKafka());
            return true;
          },
          { timeout: 180_000, interval: 1000, what: 'the game servers to publish' },
        );
      const intake = world.intake();
      const rating = world.service();
      const maintenance = new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
        DATABASE_URL: world.databaseUrl,
        KAFKA_TOPIC_PREFIX: world.prefix,
      });
      const services = { intake, rating, maintenance };
      const statuses = () =>
        [...Object.entries(services), ['leaderboard', world.leaderboard] as const]
          .map(([name, s]) => `${name} ${s?.status() ?? 'not started'}`)
          .join(', ');
      try {
        for (const s of Object.values(services)) s.start();
        await world.startLeaderboard();
        for (let i = 0; i < 3; i++) await publish(wave(i));
        await waitFor(async () => (await world.storedEvents()) > EVENTS / 10, {
          timeout: 120_000,
          interval: 100,
          what: `progress before the kill (${statuses()})`,
        });
        const killedAt = await world.storedEvents();
        await cluster('kill-node', String(victim));
        // Publishing to, and consuming from, two nodes: the ISR of 2 still takes acks=all.
        for (let i = 3; i < 7; i++) await publish(wave(i));
        await waitFor(async () => (await world.storedEvents()) > killedAt + EVENTS / 10, {
          timeout: 180_000,
          interval: 250,
          what: `progress with node ${victim} down (${statuses()})`,
        });
        // The controller fenced it: it left every ISR (the writes went on with 2 in sync).
        const topics = Object.values(world.topics);
        await withAdmin(`node ${victim} to leave every ISR`, async (admin) => {
          if (!(await isrs(topics, (isr) => !isr.includes(victim))(admin)))
            throw new Error('still in an ISR');
        });
        await cluster('start-node', String(victim));
        for (let i = 7; i < WAVES; i++) await publish(wave(i));
        await waitFor(() => world.intakeDrained(gs), {
          timeout: 300_000,
          interval: 500,
          what: `the intake to take every game (${statuses()})`,
        });
        // The intake and the maintenance service stop (cleanly): nothing more reaches the log.
        for (const s of [intake, maintenance]) {
          const end = await s.stop('SIGTERM');
          expect(end?.signal ?? null).toBeNull();
        }
        await waitFor(() => world.drained(), {
          timeout: 300_000,
          interval: 500,
          what: `the rating service to drain (${statuses()})`,
        });
        await waitFor(() => world.caughtUp(), {
          timeout: 120_000,
          interval: 500,
          what: `the leaderboard to catch up (${statuses()})`,
        });
        // The restarted node catches up and rejoins every ISR.
        await withAdmin(`node ${victim} to rejoin every ISR`, async (admin) => {
          if (!(await isrs(topics, (isr) => isr.length === 3)(admin)))
            throw new Error('an ISR is short');
        });
        expect(rating.alive()).toBe(true);
        expect(world.leaderboard.alive()).toBe(true);
        expect((await world.get('/health/live')).status).toBe(200);

        // Every game the offline replay accepts is in the store exactly once, no other.
        const offline = new ReplayEngine(ladders);
        const produced = new Set<string>();
        const accepted = new Set<string>();
        for (const { value } of messages) {
          if (!admission.admit(Buffer.from(value), gs).admitted) continue;
          const result = offline.ingestLine(value);
          if (result.kind === 'accepted') accepted.add(result.event.id);
          const id = (JSON.parse(value) as { id?: unknown }).id;
          if (typeof id === 'string') produced.add(id);
        }
        expect(accepted.size).toBeGreaterThan(EVENTS * 0.9);
        const stored: { event_id: string; n: string }[] = await world.db.query(
          'SELECT event_id, count(*) AS n FROM event_store WHERE event_id = ANY($1) GROUP BY event_id',
          [[...produced]],
        );
        expect(stored.filter((r) => Number(r.n) !== 1)).toEqual([]);
        expect(new Set(stored.map((r) => r.event_id))).toEqual(accepted);
        // The live state (the export) equals the offline replay of the stored log, the
        // maintenance service's own events included.
        await world.expectLiveSameAsLog();
      } catch (error) {
        const all: [string, ServiceProcess | undefined][] = [
          ...Object.entries(services),
          ['leaderboard', world.leaderboard],
        ];
        for (const [name, s] of all) console.error(`--- ${name}\n${s?.outputTail(4000)}`);
        throw error;
      } finally {
        // Whatever happened, the node is back for the next case.
        await cluster('start-node', String(victim)).catch(() => undefined);
        await world.tearDownAll(rating, intake, maintenance);
      }
    },
    600_000,
  );
});
