import { randomBytes } from 'node:crypto';
import { generateEvents } from '@ranking/generator';
import {
  consumerGroupPrefixes,
  consumerGroups,
  intakeGroup,
  type KafkaConnection,
  PRINCIPALS,
  producerGroupPrefix,
  rankingAcls,
} from '@ranking/kafka';
import { GameResultAdmission, ladderRegistry } from '@ranking/rating';
import {
  gameResult,
  grantAcls,
  penaltyEvent,
  principalTlsConnection,
  principalTlsEnv,
  producerConnection,
  revokeAcls,
  ServiceProcess,
  type TestProducer,
  waitFor,
  describeKafkaError,
  refusal,
} from '@ranking/testing';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { hostileEvents, seeded } from '../intake/game-server-stream.js';
import { LeaderboardWorld } from '../leaderboard/leaderboard-world.js';

const ladders = ladderRegistry();
/** Producers' users are the broker's, not a prefix's: this run's names are its own. */
const tag = randomBytes(3).toString('hex');
/** Two game servers of one ladder each, and one of every ladder (the pipeline's). */
const GOMOKU = `gomoku-${tag}`;
const XIANGQI = `xiangqi-${tag}`;
const ALL = `all-${tag}`;

/** Who connects: each system principal and each producer, on the SASL_SSL listener. */
const connections = new Map<string, KafkaConnection>();
const connectionOf = (who: string): KafkaConnection => {
  const connection = connections.get(who);
  if (!connection) throw new Error(`no connection for ${who}`);
  return connection;
};

/**
 * A client that gives up at once (a refusal is final; retrying would only slow the test), as
 * `who` when given (else over TLS without authenticating), recording kafkajs's error lines
 * (which name the broker's refusal when kafkajs's own error does not) in `logs`.
 */
const impatient = (who?: string, logs: string[] = [], retries = 0) => {
  const { brokers, tls, sasl } = who ? connectionOf(who) : connectionOf(PRINCIPALS.ops);
  return new Kafka({
    clientId: `test-impatient-${who ?? 'anonymous'}`,
    brokers: brokers.split(','),
    ...(tls && { ssl: { ...tls } }),
    logLevel: logLevel.ERROR,
    logCreator:
      () =>
      ({ log }) =>
        logs.push(`${log.message} ${String(log.error ?? '')}`),
    connectionTimeout: 3000,
    retry: { retries },
    ...(who && sasl && { sasl: sasl as SASLOptions }),
  });
};

/** Produces one message as `who`: true, or the refusal. */
async function tryProduce(who: string, topic: string): Promise<true | string> {
  const producer = impatient(who).producer();
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
 * Consumes `topic` in `group` as `who` until its first fetch answers (true) or the consumer
 * crashes (the refusal, with what kafkajs logged). Commits nothing.
 */
async function tryConsume(who: string, topic: string, group: string): Promise<true | string> {
  const logs: string[] = [];
  const consumer = impatient(who, logs).consumer({
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

interface ReadBack {
  readonly id: string | null;
  readonly value: string;
  readonly reason: string | undefined;
}

/** Reads a topic as `who` in `group` until it has at least `count` messages that `keep` keeps. */
async function readAs(
  who: string,
  topic: string,
  group: string,
  count: number,
  keep: (m: ReadBack) => boolean = () => true,
): Promise<ReadBack[]> {
  const got: ReadBack[] = [];
  const consumer = impatient(who, [], 5).consumer({ groupId: group, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: ({ message }) => {
        const value = message.value?.toString() ?? '';
        let id: string | null = null;
        try {
          id = (JSON.parse(value) as { id?: string }).id ?? null;
        } catch {
          // not JSON: no id
        }
        const read = { id, value, reason: message.headers?.['x-reject-reason']?.toString() };
        if (keep(read)) got.push(read);
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
 * The local broker's SASL_SSL listener (SCRAM-SHA-512 over TLS, standard authorizer, the ACLs of
 * libs/kafka/src/acls.ts for this suite's prefix and producers): who may do what, each producer
 * its own identity (ADR 39), and the whole pipeline with every service on its own principal.
 */
describe('Kafka SASL_SSL listener, ACLs and producers (real Kafka, PostgreSQL, Redis)', () => {
  const world = new LeaderboardWorld(ladders);
  const groups = consumerGroups(world.prefix);
  let gomoku: TestProducer;
  let xiangqi: TestProducer;
  let all: TestProducer;

  beforeAll(async () => {
    await world.setUp();
    gomoku = await world.addProducer(GOMOKU, ['igame-gomoku']);
    xiangqi = await world.addProducer(XIANGQI, ['qq-xiangqi']);
    all = await world.addProducer(ALL);
    await grantAcls(world.prefix, world.producers);
    for (const p of Object.values(PRINCIPALS)) connections.set(p, principalTlsConnection(p));
    for (const p of world.producers)
      connections.set(p.name, await producerConnection(p.name, { tls: true }));
  }, 120_000);
  afterAll(async () => {
    await revokeAcls(world.prefix, world.producers);
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

    it('refuses a producer with a wrong password', async () => {
      const { brokers, tls } = connectionOf(GOMOKU);
      const admin = new Kafka({
        brokers: brokers.split(','),
        ...(tls && { ssl: { ...tls } }),
        logLevel: logLevel.NOTHING,
        retry: { retries: 0 },
        sasl: {
          mechanism: 'scram-sha-512',
          username: connectionOf(GOMOKU).sasl!.username,
          password: 'not-the-password',
        },
      }).admin();
      expect(await refusal(() => admin.connect())).toMatch(/SASL|AUTHENTICATION/i);
      await admin.disconnect();
    });
  });

  /**
   * Who may do what, tried for real: each principal produces to and consumes from each topic it
   * should and should not (consumers in a group it may join, so a refusal is the topic's, or in
   * a group it may not, on a topic it may read, so the refusal is the group's).
   */
  describe('least privilege: each principal and each producer can do its job and no more', () => {
    const t = () => world.topics;
    const free = consumerGroupPrefixes(world.prefix);
    type Probe = [string, () => Promise<true | string>, boolean];
    const short = (name: string) => name.slice(world.prefix.length);
    const probes = (): Record<string, Probe[]> => {
      const { intake, rating, maintenance, leaderboard, ops } = PRINCIPALS;
      const writes = (who: string, topic: string, may: boolean): Probe => [
        `${may ? 'writes' : 'may not write'} ${short(topic)}`,
        () => tryProduce(who, topic),
        may,
      ];
      const reads = (who: string, topic: string, group: string, may: boolean): Probe => [
        `${may ? 'reads' : 'may not read'} ${short(topic)} in group ${short(group)}`,
        () => tryConsume(who, topic, group),
        may,
      ];
      const own = (p: TestProducer) => `${producerGroupPrefix(p.name, world.prefix)}rejections`;
      return {
        [GOMOKU]: [
          writes(GOMOKU, gomoku.topic, true),
          reads(GOMOKU, gomoku.rejections, own(gomoku), true),
          // Another producer's topic, rejections and groups.
          writes(GOMOKU, xiangqi.topic, false),
          reads(GOMOKU, xiangqi.rejections, own(gomoku), false),
          reads(GOMOKU, gomoku.rejections, own(xiangqi), false),
          // The system's.
          writes(GOMOKU, gomoku.rejections, false),
          writes(GOMOKU, t().ladderEvents, false),
          writes(GOMOKU, t().ratingChanges, false),
          reads(GOMOKU, gomoku.topic, own(gomoku), false),
          reads(GOMOKU, t().deadLetter, own(gomoku), false),
          reads(GOMOKU, t().ratingChanges, own(gomoku), false),
          reads(GOMOKU, t().ladderEvents, own(gomoku), false),
          reads(GOMOKU, gomoku.rejections, intakeGroup(GOMOKU, world.prefix), false),
          reads(GOMOKU, gomoku.rejections, groups.rating, false),
        ],
        [XIANGQI]: [
          writes(XIANGQI, xiangqi.topic, true),
          reads(XIANGQI, xiangqi.rejections, own(xiangqi), true),
          writes(XIANGQI, gomoku.topic, false),
          reads(XIANGQI, gomoku.rejections, own(xiangqi), false),
        ],
        [intake]: [
          reads(intake, gomoku.topic, intakeGroup(GOMOKU, world.prefix), true),
          reads(intake, xiangqi.topic, intakeGroup(XIANGQI, world.prefix), true),
          writes(intake, t().ladderEvents, true),
          writes(intake, gomoku.rejections, true),
          writes(intake, t().deadLetter, true),
          writes(intake, t().ratingChanges, false),
          writes(intake, gomoku.topic, false),
          reads(intake, gomoku.rejections, intakeGroup(GOMOKU, world.prefix), false),
          reads(intake, t().ladderEvents, intakeGroup(GOMOKU, world.prefix), false),
          reads(intake, gomoku.topic, groups.rating, false),
        ],
        [rating]: [
          reads(rating, t().ladderEvents, groups.rating, true),
          writes(rating, t().ratingChanges, true),
          writes(rating, t().ladderEvents, false),
          reads(rating, gomoku.topic, groups.rating, false),
          // Redriving through the intake and reading its answers are ops's alone.
          writes(rating, gomoku.topic, false),
          reads(rating, gomoku.rejections, groups.rating, false),
        ],
        [maintenance]: [
          reads(maintenance, t().ladderEvents, groups.maintenance, true),
          writes(maintenance, t().ladderEvents, true),
          writes(maintenance, t().ratingChanges, false),
          writes(maintenance, gomoku.topic, false),
        ],
        [leaderboard]: [
          reads(leaderboard, t().ratingChanges, groups.leaderboard, true),
          writes(leaderboard, t().ratingChanges, false),
          reads(leaderboard, t().ladderEvents, groups.leaderboard, false),
          // POST /v1/games writes the token's producer's topic (ADR 34, 39), never the ladder log.
          writes(leaderboard, gomoku.topic, true),
          writes(leaderboard, gomoku.rejections, false),
          writes(leaderboard, t().ladderEvents, false),
          reads(leaderboard, gomoku.rejections, groups.leaderboard, false),
        ],
        [ops]: [
          writes(ops, t().ladderEvents, true),
          reads(ops, t().deadLetter, `${free.ops}-redrive`, true),
          // `ranking redrive` (ADR 31): back through the producer's topic, and the intake's answer.
          writes(ops, gomoku.topic, true),
          reads(ops, gomoku.rejections, `${free.ops}-redrive`, true),
          reads(ops, gomoku.rejections, groups.rating, false),
          writes(ops, gomoku.rejections, false),
          writes(ops, t().deadLetter, false),
          reads(ops, t().ratingChanges, `${free.ops}-redrive`, false),
          reads(ops, t().ladderEvents, groups.rating, false),
        ],
      };
    };

    it.each([...Object.values(PRINCIPALS).filter((p) => p !== PRINCIPALS.admin), GOMOKU, XIANGQI])(
      'the %s principal',
      async (principal) => {
        const outcomes: string[] = [];
        const expected: string[] = [];
        for (const [what, probe, may] of probes()[principal]!) {
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
      const admin = impatient(PRINCIPALS.admin).admin();
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

  it('given producers publishing games and hostile events over SASL_SSL, each as itself, and ops its adjudications, then every service on its own principal folds the games into the same state as the replay of the log, builds the boards, applies nothing a producer may not send (another ladder, another namespace, a reserved id, a privileged type), and each producer reads back its own rejections as not-permitted', async () => {
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
        idPrefix: `${ALL}:`,
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

    // The producer of every ladder sends games (and the generator's bad ones); the closes and
    // corrections of the stream are the system's and the operators' to write, straight onto
    // the ladder log.
    const privileged = (l: string) => /"type":"(period\.closed|game\.corrected)"/.test(l);
    const hostile = hostileEvents(lines, 70, seeded(1616), ALL);
    const results = [
      ...lines.filter((l) => !privileged(l)).map((value) => ({ key: null, value })),
      ...hostile.map((value) => ({ key: 'igame-gomoku', value })),
    ];
    // The producer of one ladder: its own game, and each thing it may not send.
    const own = gameResult(`${GOMOKU}:g-own`, { gameId: `${GOMOKU}-own` });
    const refusedOfGomoku = [
      gameResult(`${GOMOKU}:g-xiangqi`, { ladder: 'qq-xiangqi', gameId: `${GOMOKU}-x` }),
      gameResult(`${XIANGQI}:g-1`, { gameId: `${GOMOKU}-ns` }),
      gameResult(`period.closed:igame-gomoku:weekly:2099-W01`, { gameId: `${GOMOKU}-r` }),
      penaltyEvent(`${GOMOKU}:pen-1`),
    ];

    const intake = world.intake(principalTlsEnv(PRINCIPALS.intake));
    const rating = world.service(principalTlsEnv(PRINCIPALS.rating));
    const maintenance = new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
      DATABASE_URL: world.databaseUrl,
      KAFKA_TOPIC_PREFIX: world.prefix,
      ...principalTlsEnv(PRINCIPALS.maintenance),
    });
    intake.start();
    rating.start();
    maintenance.start();
    try {
      await world.startLeaderboard(principalTlsEnv(PRINCIPALS.leaderboard));
      await world.produce(lines.filter(privileged), impatient(PRINCIPALS.ops, [], 5));
      await world.publishResults(all, results, impatient(ALL, [], 5));
      await world.publishResults(
        gomoku,
        [own, ...refusedOfGomoku].map((e) => ({ key: 'igame-gomoku', value: JSON.stringify(e) })),
        impatient(GOMOKU, [], 5),
      );
      await waitFor(
        async () => (await world.intakeDrained(all)) && (await world.intakeDrained(gomoku)),
        { timeout: 120_000, interval: 250, what: 'the intake' },
      );
      await waitFor(() => world.drained(), { timeout: 120_000, interval: 250, what: 'the drain' });
      await waitFor(
        async () =>
          (await world.get(`/ladders/${close!.ladder}/leaderboard?date=${boardDate}&limit=1`))
            .status === 200,
        { timeout: 90_000, interval: 500, what: `the ${close!.ladder} board of ${boardDate}` },
      );
      await waitFor(() => world.settled(), { timeout: 60_000, interval: 250, what: 'settled' });
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
      // Nothing a producer may not send was applied: none of those ids is in the store as what
      // it sent; the one-ladder producer's own game is.
      const ids = [...hostile, ...refusedOfGomoku.map((e) => JSON.stringify(e))].map(
        (l) => (JSON.parse(l) as { id: string }).id,
      );
      const applied: { event_id: string; type: string }[] = await world.db.query(
        'SELECT event_id, type FROM event_store WHERE event_id = ANY($1)',
        [ids],
      );
      expect(
        applied.filter(
          (r) =>
            r.type === 'game.finished' ||
            r.event_id.startsWith(`${ALL}:`) ||
            r.event_id.startsWith(`${GOMOKU}:`),
        ),
      ).toEqual([]);
      const ownStored: { event_id: string }[] = await world.db.query(
        'SELECT event_id FROM event_store WHERE event_id = $1',
        [own.id],
      );
      expect(ownStored).toHaveLength(1);
      // Each producer reads its rejections back as itself: every hostile event, not-permitted.
      const admission = new GameResultAdmission(ladders);
      const refused = results.filter(
        (m) => !admission.admit(Buffer.from(m.value), { name: ALL, ladders: all.ladders }).admitted,
      );
      const back = await readAs(
        ALL,
        all.rejections,
        `${producerGroupPrefix(ALL, world.prefix)}readback`,
        refused.length,
      );
      const reasons = new Map(back.map((m) => [m.value, m.reason]));
      for (const value of hostile)
        expect([value.slice(0, 60), reasons.get(value)]).toEqual([
          value.slice(0, 60),
          'not-permitted',
        ]);
      // (The probes above left messages of no id on its topic: rejected too, left out here.)
      const gomokuBack = await readAs(
        GOMOKU,
        gomoku.rejections,
        `${producerGroupPrefix(GOMOKU, world.prefix)}readback`,
        refusedOfGomoku.length,
        (m) => m.id !== null,
      );
      expect(gomokuBack.map((m) => [m.id, m.reason])).toEqual(
        refusedOfGomoku.map((e) => [e.id, 'not-permitted']),
      );
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
