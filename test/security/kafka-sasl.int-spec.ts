import { generateEvents } from '@ranking/generator';
import {
  consumerGroupPrefixes,
  consumerGroups,
  type Principal,
  PRINCIPALS,
  rankingAcls,
} from '@ranking/kafka';
import { GameResultAdmission, ladderRegistry } from '@ranking/rating';
import {
  grantAcls,
  principalConnection,
  principalEnv,
  principalKafka,
  revokeAcls,
  ServiceProcess,
  TEST_ENV,
  waitFor,
  describeKafkaError,
  refusal,
} from '@ranking/testing';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { hostileEvents, seeded } from '../intake/game-server-stream.js';
import { LeaderboardWorld } from '../leaderboard/leaderboard-world.js';

const ladders = ladderRegistry();

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

/** Produces one message as `principal`: true, or the refusal. */
async function tryProduce(principal: Principal, topic: string): Promise<true | string> {
  const producer = impatient(principal).producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages: [{ key: 'probe', value: '{"not":"an event"}' }] });
    return true;
  } catch (error) {
    return describeKafkaError(error);
  } finally {
    await producer.disconnect();
  }
}

/**
 * Consumes `topic` in `group` as `principal` until its first fetch answers (true) or the
 * consumer crashes (the refusal, with what kafkajs logged). Commits nothing.
 */
async function tryConsume(
  principal: Principal,
  topic: string,
  group: string,
): Promise<true | string> {
  const logs: string[] = [];
  const consumer = impatient(principal, logs).consumer({
    groupId: group,
    maxWaitTimeInMs: 100,
    retry: { retries: 0, restartOnFailure: () => Promise.resolve(false) },
  });
  const outcome = new Promise<true | string>((resolve) => {
    consumer.on(consumer.events.FETCH, () => resolve(true));
    consumer.on(consumer.events.CRASH, ({ payload }) =>
      resolve(`${describeKafkaError(payload.error)} | ${logs.join(' | ')}`),
    );
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ autoCommit: false, eachMessage: async () => {} });
    return await outcome;
  } catch (error) {
    return `${describeKafkaError(error)} | ${logs.join(' | ')}`;
  } finally {
    await consumer.disconnect();
  }
}

/** Reads a topic as `principal` in `group` until it has at least `count` messages. */
async function readAs(
  principal: Principal,
  topic: string,
  group: string,
  count: number,
): Promise<{ value: string; reason: string | undefined }[]> {
  const got: { value: string; reason: string | undefined }[] = [];
  const consumer = principalKafka(principal).consumer({ groupId: group, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: ({ message }) => {
        got.push({
          value: message.value?.toString() ?? '',
          reason: message.headers?.['x-reject-reason']?.toString(),
        });
        return Promise.resolve();
      },
    });
    await waitFor(() => got.length >= count, {
      timeout: 60_000,
      interval: 100,
      what: `${count} messages on ${topic}`,
    });
    return got;
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

  /**
   * Who may do what, tried for real: each principal produces to and consumes from each topic it
   * should and should not (consumers in a group it may join, so a refusal is the topic's).
   */
  describe('least privilege: each principal can do its job and no more', () => {
    const t = () => world.topics;
    const free = consumerGroupPrefixes(world.prefix);
    type Probe = [string, () => Promise<true | string>, boolean];
    const probes = (): Record<Principal, Probe[]> => {
      const { gameServer, simulator, intake, rating, maintenance, leaderboard, ops } = PRINCIPALS;
      const writes = (who: Principal, topic: string, may: boolean): Probe => [
        `${may ? 'writes' : 'may not write'} ${topic.slice(world.prefix.length)}`,
        () => tryProduce(who, topic),
        may,
      ];
      const reads = (who: Principal, topic: string, group: string, may: boolean): Probe => [
        `${may ? 'reads' : 'may not read'} ${topic.slice(world.prefix.length)} in group ${group.slice(world.prefix.length)}`,
        () => tryConsume(who, topic, group),
        may,
      ];
      return {
        [gameServer]: [
          writes(gameServer, t().gameResults, true),
          writes(gameServer, t().ladderEvents, false),
          writes(gameServer, t().gameResultsRejected, false),
          writes(gameServer, t().ratingChanges, false),
          reads(gameServer, t().gameResultsRejected, `${free.gameServer}-eu-1`, true),
          reads(gameServer, t().gameResults, `${free.gameServer}-eu-1`, false),
          reads(gameServer, t().deadLetter, `${free.gameServer}-eu-1`, false),
          reads(gameServer, t().ratingChanges, `${free.gameServer}-eu-1`, false),
          reads(gameServer, t().ladderEvents, `${free.gameServer}-eu-1`, false),
          reads(gameServer, t().gameResultsRejected, groups.intake, false),
          reads(gameServer, t().gameResultsRejected, groups.rating, false),
        ],
        [simulator]: [
          writes(simulator, t().gameResults, true),
          writes(simulator, t().ladderEvents, true),
          writes(simulator, t().ratingChanges, false),
          reads(simulator, t().ladderEvents, groups.rating, false),
        ],
        [intake]: [
          reads(intake, t().gameResults, groups.intake, true),
          writes(intake, t().ladderEvents, true),
          writes(intake, t().gameResultsRejected, true),
          writes(intake, t().deadLetter, true),
          writes(intake, t().ratingChanges, false),
          reads(intake, t().ladderEvents, groups.intake, false),
          reads(intake, t().gameResults, groups.rating, false),
        ],
        [rating]: [
          reads(rating, t().ladderEvents, groups.rating, true),
          writes(rating, t().ratingChanges, true),
          writes(rating, t().ladderEvents, false),
          reads(rating, t().gameResults, groups.rating, false),
          // Redriving through the intake and reading its answers are ops's alone.
          writes(rating, t().gameResults, false),
          reads(rating, t().gameResultsRejected, groups.rating, false),
        ],
        [maintenance]: [
          reads(maintenance, t().ladderEvents, groups.maintenance, true),
          writes(maintenance, t().ladderEvents, true),
          writes(maintenance, t().ratingChanges, false),
          writes(maintenance, t().gameResults, false),
        ],
        [leaderboard]: [
          reads(leaderboard, t().ratingChanges, groups.leaderboard, true),
          writes(leaderboard, t().ratingChanges, false),
          reads(leaderboard, t().ladderEvents, groups.leaderboard, false),
          // POST /v1/games writes the intake (ADR 34), never the ladder log.
          writes(leaderboard, t().gameResults, true),
          writes(leaderboard, t().ladderEvents, false),
        ],
        [ops]: [
          writes(ops, t().ladderEvents, true),
          reads(ops, t().deadLetter, `${free.ops}-redrive`, true),
          // `ranking redrive` (ADR 31): back through the intake, and the intake's answer.
          writes(ops, t().gameResults, true),
          reads(ops, t().gameResultsRejected, `${free.ops}-redrive`, true),
          reads(ops, t().gameResultsRejected, groups.rating, false),
          writes(ops, t().gameResultsRejected, false),
          writes(ops, t().deadLetter, false),
          reads(ops, t().ratingChanges, `${free.ops}-redrive`, false),
          reads(ops, t().ladderEvents, groups.rating, false),
        ],
        [PRINCIPALS.admin]: [],
      };
    };

    it.each(Object.values(PRINCIPALS).filter((p) => p !== PRINCIPALS.admin))(
      'the %s principal',
      async (principal) => {
        const outcomes: string[] = [];
        const expected: string[] = [];
        for (const [what, probe, may] of probes()[principal]) {
          const result = await probe();
          outcomes.push(`${what}: ${result === true ? 'allowed' : 'refused'}`);
          expected.push(`${what}: ${may ? 'allowed' : 'refused'}`);
          // A refusal is the broker's authorizer speaking, not a network fault.
          if (result !== true)
            expect(`${what}: ${result}`).toMatch(/AUTHORIZATION_FAILED|authorization failed/i);
        }
        expect(outcomes).toEqual(expected);
      },
      120_000,
    );

    it('ops may neither create topics nor write ACLs; the admin (`ranking setup`) may', async () => {
      const topic = `${world.prefix}ranking.probe-${Date.now()}`;
      const acl = rankingAcls(world.prefix)[0]!;
      const ops = impatient(PRINCIPALS.ops).admin();
      await ops.connect();
      try {
        // kafkajs gathers the broker's answer per topic in `errors`.
        const refused = await ops.createTopics({ topics: [{ topic, numPartitions: 1 }] }).then(
          () => 'created',
          (error: { errors?: { type?: string }[]; type?: string }) =>
            (error.errors ?? [error]).map((e) => e.type).join(),
        );
        expect(refused).toMatch(/AUTHORIZATION_FAILED/);
        expect(await refusal(() => ops.createAcls({ acl: [acl] }))).toMatch(
          /CLUSTER_AUTHORIZATION_FAILED/,
        );
      } finally {
        await ops.disconnect();
      }
      const admin = principalKafka('admin').admin();
      await admin.connect();
      try {
        expect(await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] })).toBe(true);
        await admin.createAcls({ acl: [acl] });
        await admin.deleteTopics({ topics: [topic] });
      } finally {
        await admin.disconnect();
      }
    });
  });

  it('given game servers publishing games and hostile events to the intake as game-server, and ops its adjudications, then every service on its own principal folds the games into the same state as the replay of the log, builds the boards, applies nothing hostile, and the game servers read each hostile event back as not-permitted', async () => {
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

    // Game servers send games (and the generator's bad ones); the closes and corrections of
    // the stream are the system's and the operators' to write, straight onto the ladder log.
    const privileged = (l: string) => /"type":"(period\.closed|game\.corrected)"/.test(l);
    const hostile = hostileEvents(lines, 70, seeded(1616));
    const results = [
      ...lines.filter((l) => !privileged(l)).map((value) => ({ key: null, value })),
      ...hostile.map((value) => ({ key: 'igame-gomoku', value })),
    ];

    const intake = world.intake(principalEnv(PRINCIPALS.intake));
    const rating = world.service(principalEnv(PRINCIPALS.rating));
    const maintenance = new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
      DATABASE_URL: world.databaseUrl,
      KAFKA_TOPIC_PREFIX: world.prefix,
      ...principalEnv(PRINCIPALS.maintenance),
    });
    intake.start();
    rating.start();
    maintenance.start();
    try {
      await world.startLeaderboard(principalEnv(PRINCIPALS.leaderboard));
      await world.produce(lines.filter(privileged), principalKafka(PRINCIPALS.ops));
      await world.publishResults(results, principalKafka(PRINCIPALS.gameServer));
      await waitFor(() => world.intakeDrained(), {
        timeout: 120_000,
        interval: 250,
        what: 'the intake',
      });
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
      // Nothing a game server may not send was applied: none of its ids is in the store as
      // what it sent.
      const ids = hostile.map((l) => (JSON.parse(l) as { id: string }).id);
      const applied: { event_id: string; type: string }[] = await world.db.query(
        'SELECT event_id, type FROM event_store WHERE event_id = ANY($1)',
        [ids],
      );
      expect(
        applied.filter((r) => r.type === 'game.finished' || r.event_id.startsWith('gs-')),
      ).toEqual([]);
      // The game servers read their rejections back: every hostile event, not-permitted.
      const admission = new GameResultAdmission(ladders);
      const refused = results.filter((m) => !admission.admit(Buffer.from(m.value)).admitted);
      const back = await readAs(
        PRINCIPALS.gameServer,
        world.topics.gameResultsRejected,
        `${consumerGroupPrefixes(world.prefix).gameServer}-readback`,
        refused.length,
      );
      const reasons = new Map(back.map((m) => [m.value, m.reason]));
      for (const value of hostile)
        expect([value.slice(0, 60), reasons.get(value)]).toEqual([
          value.slice(0, 60),
          'not-permitted',
        ]);
      // Each service is ready: its Kafka health checks (cluster, offsets, lag) pass on its ACLs.
      for (const service of [intake, rating, maintenance, world.leaderboard]) {
        const res = await fetch(`${await service.url()}/health/ready`);
        expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 200 });
        expect(service.output).not.toMatch(/AUTHORIZATION_FAILED/);
      }
    } finally {
      await intake.stop();
      await maintenance.stop();
      await rating.stop();
    }
  }, 300_000);
});
