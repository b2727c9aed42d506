import { createHash, randomBytes } from 'node:crypto';
import { MAX_VALUE_BYTES } from '@ranking/contracts';
import { deleteAcls, PRINCIPALS, rankingAcls } from '@ranking/kafka';
import { ladderRegistry } from '@ranking/rating';
import {
  gameResult,
  grantAcls,
  largestValueBytes,
  principalEnv,
  producerConnection,
  RatingScenario,
  readTopics,
  revokeAcls,
  type ServiceProcess,
  sizedValue,
  type TestProducer,
  testKafka,
  type TopicMessage,
  waitFor,
} from '@ranking/testing';
import { kafkaClient } from '@ranking/kafka';
import kafkajs, { type Kafka } from 'kafkajs';

const { AclOperationTypes } = kafkajs;
const ladders = ladderRegistry();

interface Sent {
  readonly key: string | null;
  readonly value: Buffer | null;
}

/** Publishes as a game server does: each message in its own request (so the broker takes each one within its limit). */
async function publishEach(kafka: Kafka, topic: string, messages: readonly Sent[]): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (const m of messages) await producer.send({ topic, acks: -1, messages: [m] });
  } finally {
    await producer.disconnect();
  }
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A valid game at a random key. */
const validGameOf = (id: string): Sent => ({
  key: randomBytes(6).toString('hex'),
  value: Buffer.from(JSON.stringify(gameResult(id, { gameId: `g-${id}` }))),
});

/** A game padded to exactly `bytes` (an oversized one is refused before it is parsed). */
const bigGameOf = (id: string, key: string | null, bytes: number): Sent => ({
  key,
  value: Buffer.from(sizedValue(gameResult(id), bytes, 'ascii')),
});

/**
 * Samples `/health/ready` every half second from now until stopped; returns the answers that
 * were not 200 (status and body).
 */
function watchReadiness(service: ServiceProcess): { stop(): Promise<string[]> } {
  const red: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const res = await fetch(`${await service.url()}/health/ready`);
      const body = await res.text();
      if (res.status !== 200) red.push(`${res.status} ${body}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return red;
    },
  };
}

const ready = async (service: ServiceProcess): Promise<boolean> =>
  (await fetch(`${await service.url()}/health/ready`)).status === 200;

/**
 * What a game server reads back of what it sent: the rejections whose key and original bytes
 * (the value itself, or for a value cut to its first 65,536 bytes, the original's length and
 * SHA-256 in headers) are those of `sent`.
 */
function rejectionsOf(rejections: readonly TopicMessage[], sent: Sent): TopicMessage[] {
  return rejections.filter((r) => {
    if ((r.key?.toString() ?? null) !== (sent.key ?? null)) return false;
    if (sent.value === null) return r.value === null;
    if (r.value === null) return false;
    if (r.headers['x-original-value-bytes'] === undefined) return r.value.equals(sent.value);
    return (
      Number(r.headers['x-original-value-bytes']) === sent.value.length &&
      r.headers['x-original-value-sha256'] === sha256(sent.value) &&
      r.value.equals(sent.value.subarray(0, MAX_VALUE_BYTES))
    );
  });
}

/**
 * The intake's transport against whatever a game server can put on its topic within the
 * broker's limits (issue 41 item 2; ADR 36): values up to the broker's limit, several of them
 * in one fetch, a null value, a 20 KB key. None may stall the intake or lose a rejection.
 * Every client on the SASL listener as its own principal, as in production.
 */
describe('intake: hostile transport (real Kafka, SASL, ACLs)', () => {
  // A world a test: its own topics, group and ACLs (and database, which the intake does not use).
  let world: RatingScenario;
  let intake: ServiceProcess;
  /** The game server of the test: a producer of its own, publishing as its own principal. */
  let gs: TestProducer;
  let gameServer: Kafka;
  beforeEach(async () => {
    world = new RatingScenario(ladders);
    await world.setUp();
    gs = await world.addProducer();
    intake = world.intake(principalEnv(PRINCIPALS.intake));
    await grantAcls(world.prefix, [gs]);
    gameServer = kafkaClient(await producerConnection(gs.name), `test-${gs.name}`);
  });
  afterEach(async () => {
    await intake.stop();
    await revokeAcls(world.prefix, [gs]);
    await world.tearDown();
  });
  /** A valid game of the producer at a random key. */
  const validGame = (id: string) => validGameOf(`${gs.name}:${id}`);
  const bigGame = (id: string, key: string | null, bytes: number) =>
    bigGameOf(`${gs.name}:${id}`, key, bytes);
  const idOf = (m: { value: Buffer | null }) =>
    (JSON.parse(m.value!.toString()).id as string).slice(gs.name.length + 1);

  const readBack = async () => {
    const read = await readTopics(testKafka(), [world.topics.ladderEvents, gs.rejections]);
    return {
      logged: [...read.get(world.topics.ladderEvents)!.values()].flat(),
      rejections: [...read.get(gs.rejections)!.values()].flat(),
    };
  };

  it('given five values of 600,000-990,000 bytes under one key, then 30 valid games at random keys, all sent by a game server, then all 30 reach the ladder log, each big value comes back rejected exactly once, and readiness stays green', async () => {
    intake.start();
    await waitFor(() => ready(intake), {
      timeout: 90_000,
      interval: 250,
      what: 'the intake ready',
    });
    const watch = watchReadiness(intake);
    const big = [600_000, 700_000, 800_000, 900_000, 990_000].map((bytes, i) =>
      bigGame(`stall-big-${i}`, 'one-game-server', bytes),
    );
    const games = Array.from({ length: 30 }, (_, i) => validGame(`stall-valid-${i}`));
    let red: string[] = [];
    try {
      await publishEach(gameServer, gs.topic, [
        ...big,
        ...games,
      ]);
      await waitFor(
        async () => {
          const { logged, rejections } = await readBack();
          const ids = new Set(logged.map(idOf));
          return (
            games.every((g) => ids.has(idOf(g))) &&
            big.every((b) => rejectionsOf(rejections, b).length > 0)
          );
        },
        { timeout: 90_000, interval: 1000, what: 'the 30 games logged and the 5 rejections' },
      );
      await waitFor(() => world.intakeDrained(gs), {
        timeout: 60_000,
        interval: 250,
        what: 'the intake to commit',
      });
    } finally {
      red = await watch.stop();
    }
    const { logged, rejections } = await readBack();
    expect(logged).toHaveLength(30);
    for (const b of big) {
      const back = rejectionsOf(rejections, b);
      expect(back).toHaveLength(1);
      expect(back[0]!.headers['x-reject-reason']).toBe('invalid-event');
      expect(back[0]!.headers['x-reject-detail']).toBe(
        `the value is ${b.value!.length} bytes, over the limit of ${MAX_VALUE_BYTES}`,
      );
    }
    expect(rejections).toHaveLength(5);
    expect(red).toEqual([]);
  }, 240_000);

  it('given values at the broker limit meeting in one fetch (several under one key), a null value, a 20 KB key, and 40 valid games of 65,536 bytes on one ladder, then every valid game is logged once and everything else comes back rejected once, matched by its key and bytes', async () => {
    const longKey = 'k'.repeat(20_480);
    const atLimit = (id: string, key: string | null) =>
      bigGame(id, key, largestValueBytes(key === null ? null : Buffer.byteLength(key)));
    const refused: Sent[] = [
      atLimit('limit-0', 'same-key'),
      atLimit('limit-1', 'same-key'),
      atLimit('limit-2', 'same-key'),
      atLimit('limit-3', null),
      atLimit('limit-4', 'other-key'),
      atLimit('limit-5', longKey),
      { key: 'null-value', value: null },
      { key: longKey, value: null },
      { key: longKey, value: Buffer.from('{"not":"an event"}') },
    ];
    const games: Sent[] = [
      ...Array.from({ length: 40 }, (_, i) =>
        bigGame(`max-valid-${i}`, 'same-key', MAX_VALUE_BYTES),
      ),
      { ...validGame('long-key-valid'), key: longKey },
    ];
    // Published before the intake starts, so they all meet in its first fetches.
    await publishEach(gameServer, gs.topic, [
      ...refused.slice(0, 3),
      ...games.slice(0, 20),
      ...refused.slice(3),
      ...games.slice(20),
    ]);
    intake.start();
    await waitFor(() => world.intakeDrained(gs), {
      timeout: 120_000,
      interval: 500,
      what: 'the intake to take every message',
    });
    const { logged, rejections } = await readBack();
    const ids = logged.map(idOf).sort();
    expect(ids).toEqual(games.map(idOf).sort());
    for (const r of refused)
      expect([r.key?.slice(0, 20), rejectionsOf(rejections, r).length]).toEqual([
        r.key?.slice(0, 20),
        1,
      ]);
    expect(rejections).toHaveLength(refused.length);
    await waitFor(() => ready(intake), {
      timeout: 60_000,
      interval: 250,
      what: 'the intake ready',
    });
  }, 240_000);

  it("given the intake's WRITE on the rejection topic revoked, then readiness fails with one line naming the topic and the grant, and once the grant is back the rejection arrives and readiness recovers", async () => {
    // The intake writes every producer's rejections through one prefixed grant.
    const [write] = rankingAcls(world.prefix, [gs]).filter(
      (a) =>
        a.principal === `User:${PRINCIPALS.intake}` &&
        gs.rejections.startsWith(a.resourceName) &&
        a.operation === AclOperationTypes.WRITE,
    );
    expect(write).toBeDefined();
    const admin = testKafka().admin();
    await admin.connect();
    try {
      await deleteAcls(admin, [write!]);
    } finally {
      await admin.disconnect();
    }
    const bad: Sent = { key: 'grant-probe', value: Buffer.from('{"not":"an event"}') };
    const game = validGame('grant-valid');
    await publishEach(gameServer, gs.topic, [bad, game]);
    intake.start();
    const problem = await waitFor(
      async () => {
        const res = await fetch(`${await intake.url()}/health/ready`);
        if (res.status === 200) return false;
        const body = (await res.json()) as { error?: Record<string, { message?: string }> };
        const message = Object.values(body.error ?? {})
          .map((c) => c.message ?? '')
          .find((m) => m.includes(gs.rejections));
        return message ?? false;
      },
      { timeout: 90_000, interval: 500, what: 'readiness to name the missing grant' },
    );
    expect(problem).not.toContain('\n');
    expect(problem).toContain(gs.rejections);
    expect(problem).toMatch(/\bWRITE\b/);
    expect(problem).toMatch(/TOPIC_AUTHORIZATION_FAILED/);

    // Retried slowly meanwhile, the admitted game not written again at each retry.
    await waitFor(() => /failed \(misconfigured, attempt 3\)/.test(intake.output), {
      timeout: 60_000,
      interval: 250,
      what: 'three slow retries',
    });
    await grantAcls(world.prefix, [gs]);
    await waitFor(async () => rejectionsOf((await readBack()).rejections, bad).length === 1, {
      timeout: 120_000,
      interval: 1000,
      what: 'the rejection once the grant is back',
    });
    await waitFor(() => ready(intake), { timeout: 90_000, interval: 500, what: 'readiness back' });
    expect((await readBack()).logged.map(idOf)).toEqual(['grant-valid']);
  }, 300_000);
});
