import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry } from '@ranking/rating';
import { RatingScenario, TEST_ENV, uniqueName, waitFor } from '@ranking/testing';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';

/**
 * Runs only against the three-node cluster of `kafka.sh start --brokers 3`, through
 * `npm run test:brokers` (deploy/test-brokers.sh); the normal jest projects do not match it.
 */
const run = promisify(execFile);
const cluster = (...args: string[]) =>
  run('bash', ['deploy/kafka/kafka.sh', '--brokers', '3', ...args]);
const EVENTS = Number(process.env.RANKING_CLUSTER_EVENTS ?? 20_000);
const WAVES = 10;
/**
 * The game servers' producer: patient enough to outlast a dead leader until the controller
 * fences it (broker.session.timeout.ms, 9 s) and elects another (one idempotent session per
 * wave, so its retries never write a message twice).
 */
const gameServers = new Kafka({
  clientId: uniqueName('game-server'),
  brokers: TEST_ENV.kafkaBrokers.split(','),
  logLevel: logLevel.NOTHING,
  retry: { initialRetryTime: 300, maxRetryTime: 3000, retries: 30 },
});

describe('three-broker cluster (RF 3, min.insync.replicas 2)', () => {
  const world = new RatingScenario(ladderRegistry());
  beforeAll(() => world.setUp());
  afterAll(() => world.tearDown());

  const lines = [
    ...generateEvents({
      seed: 16,
      events: EVENTS,
      closes: true,
      badShare: 0.02,
      correctionShare: 0.02,
      days: 20,
    }),
  ];
  const wave = (i: number) =>
    lines.slice(
      Math.floor((i * lines.length) / WAVES),
      Math.floor(((i + 1) * lines.length) / WAVES),
    );

  it('the topics are replicated 3 times with min.insync.replicas=2', async () => {
    const admin = world.kafka.admin();
    await admin.connect();
    try {
      const topics = Object.values(world.topics);
      const { topics: metadata } = await waitFor(() => admin.fetchTopicMetadata({ topics }), {
        timeout: 30_000,
        interval: 250,
        what: 'the topics metadata',
      });
      for (const topic of metadata)
        for (const partition of topic.partitions) {
          expect(partition.replicas).toHaveLength(3);
          expect(partition.isr).toHaveLength(3);
        }
      // A broker may not know a just-created topic yet (UNKNOWN_TOPIC_OR_PARTITION): ask again.
      const { resources } = await waitFor(
        () =>
          admin.describeConfigs({
            includeSynonyms: false,
            resources: topics.map((name) => ({
              type: ConfigResourceTypes.TOPIC,
              name,
              configNames: ['min.insync.replicas'],
            })),
          }),
        { timeout: 30_000, interval: 250, what: 'the topics configs' },
      );
      for (const resource of resources)
        expect(resource.configEntries.map((e) => [e.configName, e.configValue])).toEqual([
          ['min.insync.replicas', '2'],
        ]);
    } finally {
      await admin.disconnect();
    }
  });

  it('when a partition leader is SIGKILLed during a load and restarted later, then the state equals the offline replay', async () => {
    const rating = world.service();
    rating.start();
    const admin = world.kafka.admin();
    await admin.connect();
    try {
      // Progress first: the service consumes and publishes (the relay, acks=all) before the kill.
      for (let i = 0; i < 3; i++) await world.produce(wave(i), gameServers);
      await waitFor(async () => (await world.storedEvents()) > 2000, {
        timeout: 120_000,
        interval: 100,
        what: `progress before the kill (service ${rating.status()})`,
      });
      const { topics } = await admin.fetchTopicMetadata({ topics: [world.topics.ladderEvents] });
      const victim = topics[0]?.partitions.find((p) => p.partitionId === 0)?.leader;
      if (victim === undefined) throw new Error('no leader for partition 0');
      const killedAt = await world.storedEvents();
      await cluster('kill-node', String(victim));
      // Producing to, and consuming from, two brokers: the ISR of 2 still takes acks=all.
      for (let i = 3; i < 7; i++) await world.produce(wave(i), gameServers);
      await waitFor(async () => (await world.storedEvents()) > killedAt + 2000, {
        timeout: 180_000,
        interval: 250,
        what: `progress with node ${victim} down (service ${rating.status()})`,
      });
      // The controller fenced it: it left every ISR (the writes went on with 2 in sync).
      await waitFor(
        async () => {
          const { topics: down } = await admin.fetchTopicMetadata({
            topics: Object.values(world.topics),
          });
          return down.every((t) => t.partitions.every((p) => !p.isr.includes(victim)));
        },
        { timeout: 60_000, interval: 500, what: `node ${victim} to leave every ISR` },
      );
      await cluster('start-node', String(victim));
      for (let i = 7; i < WAVES; i++) await world.produce(wave(i), gameServers);
      await waitFor(() => world.drained(), {
        timeout: 300_000,
        interval: 500,
        what: `the backlog to drain (service ${rating.status()})`,
      });
      // The restarted node catches up and rejoins every ISR.
      await waitFor(
        async () => {
          const { topics: after } = await admin.fetchTopicMetadata({
            topics: Object.values(world.topics),
          });
          return after.every((t) => t.partitions.every((p) => p.isr.length === 3));
        },
        { timeout: 120_000, interval: 1000, what: `node ${victim} to rejoin every ISR` },
      );
      expect(rating.alive()).toBe(true);
      await world.expectSameAsReplay(lines);
    } catch (error) {
      console.error(rating.outputTail(6000));
      throw error;
    } finally {
      await admin.disconnect();
      await rating.stop();
    }
  }, 900_000);
});
