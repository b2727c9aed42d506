/* eslint-disable @typescript-eslint/no-explicit-any -- kafkajs errors are walked untyped */
import { generateEvents } from '@ranking/generator';
import { consumerGroups, type Principal, PRINCIPALS } from '@ranking/kafka';
import { ladderRegistry } from '@ranking/rating';
import {
  grantAcls,
  principalConnection,
  principalEnv,
  principalKafka,
  revokeAcls,
  ServiceProcess,
  TEST_ENV,
  waitFor,
} from '@ranking/testing';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { LeaderboardWorld } from '../leaderboard/leaderboard-world.js';

const ladders = ladderRegistry();

/** An error and its causes, as one line: kafkajs wraps a broker's refusal (`type`) in retry errors. */
function describe_(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as any; e && parts.length < 6; e = e.cause ?? e.originalError)
    parts.push(`${e.type ?? ''} ${e.name ?? ''}: ${e.message ?? String(e)}`);
  return parts.join(' <- ');
}

/** What a refused call failed with (it must fail). */
async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return describe_(error);
  }
  throw new Error('the call succeeded');
}

/**
 * A client that gives up at once (a refusal is final; retrying would only slow the test), as
 * `principal` when given, recording kafkajs's error lines (which name the broker's refusal when
 * kafkajs's own error does not) in `logs`.
 */
const impatient = (principal?: Principal, logs: string[] = [], retries = 0) =>
  new Kafka({
    clientId: `test-impatient-${principal ?? 'anonymous'}`,
    brokers: TEST_ENV.kafkaSaslBrokers.split(','),
    logLevel: logLevel.ERROR,
    logCreator:
      () =>
      ({ log }) =>
        logs.push(`${log.message} ${String(log.error ?? '')}`),
    connectionTimeout: 3000,
    retry: { retries },
    ...(principal && { sasl: principalConnection(principal).sasl as SASLOptions }),
  });

/** Runs a consumer of `topic` in `group` as `principal`; says what its crash logged. */
async function joinGroup(principal: Principal, group: string, topic: string): Promise<string> {
  const logs: string[] = [];
  const consumer = impatient(principal, logs).consumer({
    groupId: group,
    retry: { retries: 0, restartOnFailure: () => Promise.resolve(false) },
  });
  const crashed = new Promise<string>((resolve) =>
    consumer.on(consumer.events.CRASH, ({ payload }) => resolve(describe_(payload.error))),
  );
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic] });
    await consumer.run({ eachMessage: async () => {} });
    return `${await crashed} | ${logs.join(' | ')}`;
  } finally {
    await consumer.disconnect();
  }
}

/**
 * The local broker's SASL_PLAINTEXT listener (SCRAM-SHA-512, standard authorizer, the ACLs of
 * libs/kafka/src/acls.ts for this suite's prefix): who may do what, and the whole pipeline
 * with every service on its own principal.
 */
describe('Kafka SASL listener and ACLs (real Kafka, PostgreSQL, Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  const groups = consumerGroups(world.prefix);

  beforeAll(async () => {
    await world.setUp();
    await grantAcls(world.prefix);
  });
  afterAll(async () => {
    await revokeAcls(world.prefix);
    await world.tearDownAll();
  });

  describe('authentication', () => {
    it('refuses a client that does not authenticate', async () => {
      const admin = impatient().admin();
      expect(
        await refusal(async () => {
          await admin.connect();
          await admin.listTopics();
        }),
      ).toMatch(/Connection|Closed|Timeout|SASL|ECONNRESET/i);
      await admin.disconnect();
    });

    it('refuses a wrong password', async () => {
      const admin = new Kafka({
        brokers: TEST_ENV.kafkaSaslBrokers.split(','),
        logLevel: logLevel.NOTHING,
        retry: { retries: 0 },
        sasl: {
          mechanism: 'scram-sha-512',
          username: PRINCIPALS.gameServer,
          password: 'not-the-password',
        },
      }).admin();
      expect(await refusal(() => admin.connect())).toMatch(/SASL|AUTHENTICATION/i);
      await admin.disconnect();
    });
  });

  describe('the game-server principal', () => {
    const gameServer = () => impatient(PRINCIPALS.gameServer);

    it('may write ladder events', async () => {
      const producer = gameServer().producer();
      await producer.connect();
      try {
        const [sent] = await producer.send({
          topic: world.topics.ladderEvents,
          messages: [{ key: 'igame-gomoku', value: '{"not":"an event"}' }],
        });
        expect(sent!.errorCode).toBe(0);
      } finally {
        await producer.disconnect();
      }
    });

    it('may not write rating changes', async () => {
      const producer = impatient(PRINCIPALS.gameServer).producer();
      await producer.connect();
      try {
        expect(
          await refusal(() =>
            producer.send({ topic: world.topics.ratingChanges, messages: [{ value: '{}' }] }),
          ),
        ).toMatch(/TOPIC_AUTHORIZATION_FAILED/);
      } finally {
        await producer.disconnect();
      }
    });

    it('cannot read ranking.rating-changes, not even its offsets', async () => {
      const admin = gameServer().admin();
      await admin.connect();
      try {
        expect(await admin.listTopics()).toEqual(
          expect.not.arrayContaining([world.topics.ratingChanges, world.topics.deadLetter]),
        );
        expect(await refusal(() => admin.fetchTopicOffsets(world.topics.ratingChanges))).toMatch(
          /TOPIC_AUTHORIZATION_FAILED/,
        );
      } finally {
        await admin.disconnect();
      }
      const consumer = gameServer().consumer({ groupId: `${world.prefix}game-server` });
      await consumer.connect();
      try {
        expect(
          await refusal(() => consumer.subscribe({ topics: [world.topics.ratingChanges] })),
        ).toMatch(/TOPIC_AUTHORIZATION_FAILED/);
      } finally {
        await consumer.disconnect();
      }
    });

    it("cannot join the rating service's consumer group", async () => {
      // kafkajs reports the refused FindCoordinator as "group coordinator not found"; its log
      // line carries the broker's answer.
      expect(
        await joinGroup(PRINCIPALS.gameServer, groups.rating, world.topics.ladderEvents),
      ).toMatch(/Group authorization failed/);
      // Nor can it read the group's committed offsets.
      const logs: string[] = [];
      // (kafkajs needs a retry here to get as far as the coordinator lookup.)
      const admin = impatient(PRINCIPALS.gameServer, logs, 1).admin();
      await admin.connect();
      try {
        const refused = await refusal(() =>
          admin.fetchOffsets({ groupId: groups.rating, topics: [world.topics.ladderEvents] }),
        );
        expect(`${refused} | ${logs.join(' | ')}`).toMatch(
          /GROUP_AUTHORIZATION_FAILED|Group authorization failed/,
        );
      } finally {
        await admin.disconnect();
      }
    });
  });

  it('a service on another principal cannot use the rating service group either', async () => {
    expect(
      await joinGroup(PRINCIPALS.leaderboard, groups.rating, world.topics.ratingChanges),
    ).toMatch(/Group authorization failed/);
  });

  it('given game servers publishing as game-server, then the rating, maintenance and leaderboard services, each on its own principal, fold them into the same state as the replay of the log and build the boards', async () => {
    // The three days before now: the maintenance service closes every day up to its real clock,
    // and the leaderboard keeps the newest 30 boards, so a stream at a fixed date would see its
    // boards dropped (or not) as the weeks pass. Three days back, every board it names is kept.
    const lines = [
      ...generateEvents({
        seed: 1616,
        events: 3000,
        closes: true,
        days: 3,
        start: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        badShare: 0.02,
        correctionShare: 0.02,
        playersPerLadder: 30,
      }),
    ];
    // A daily close of a ladder with a board: its board must appear.
    const close = lines
      .filter((l) => l.includes('"period.closed"') && l.includes('"daily"'))
      .map((l) => {
        try {
          return JSON.parse(l) as { ladder: string; key: string };
        } catch {
          return null;
        }
      })
      .find((e) => e && ladders.get(e.ladder)?.rankedAfter !== null);
    expect(close).toBeTruthy();
    const boardDate = new Date(Date.parse(`${close!.key}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);

    const rating = world.service(principalEnv(PRINCIPALS.rating));
    const maintenance = new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
      DATABASE_URL: world.databaseUrl,
      KAFKA_TOPIC_PREFIX: world.prefix,
      ...principalEnv(PRINCIPALS.maintenance),
    });
    rating.start();
    maintenance.start();
    try {
      await world.startLeaderboard(principalEnv(PRINCIPALS.leaderboard));
      await world.produce(lines, principalKafka(PRINCIPALS.gameServer));
      await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
      await waitFor(
        async () =>
          (await world.get(`/ladders/${close!.ladder}/leaderboard?date=${boardDate}&limit=1`))
            .status === 200,
        { timeout: 90_000, interval: 500, what: `the ${close!.ladder} board of ${boardDate}` },
      );
      await waitFor(() => world.caughtUp(), { timeout: 60_000, interval: 250, what: 'caught up' });
      await waitFor(
        async () => {
          const rows: { n: string }[] = await world.db.query(
            "SELECT count(DISTINCT partition) AS n FROM consumer_offsets WHERE consumer = 'maintenance-service' AND topic = $1",
            [world.topics.ladderEvents],
          );
          return Number(rows[0]!.n) > 0;
        },
        { timeout: 60_000, interval: 250, what: 'the maintenance service to consume' },
      );

      await world.expectLiveSameAsLog();
      const stored: { n: string }[] = await world.db.query(
        "SELECT count(*) AS n FROM event_store WHERE type = 'game.finished'",
      );
      expect(Number(stored[0]!.n)).toBeGreaterThan(2000);
      // Each service is ready: its Kafka health checks (cluster, offsets, lag) pass on its ACLs.
      for (const service of [rating, maintenance, world.leaderboard]) {
        const res = await fetch(`${await service.url()}/health/ready`);
        expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 200 });
        expect(service.output).not.toMatch(/AUTHORIZATION_FAILED/);
      }
    } finally {
      await maintenance.stop();
      await rating.stop();
    }
  }, 300_000);
});
