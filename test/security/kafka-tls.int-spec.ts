import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import { loadEnvironment } from '@ranking/config';
import {
  intakeGroup,
  kafkaClient,
  kafkaConnection,
  type KafkaConnection,
  PRINCIPALS,
  type Principal,
  producerPrincipal,
  producerTopicNames,
  topicNames,
} from '@ranking/kafka';
import { deleteScramUser } from '@ranking/kafka';
import {
  createTestDatabase,
  jsonLines,
  principalEnv,
  principalTlsEnv,
  revokeAcls,
  ServiceProcess,
  TEST_ENV,
  testKafka,
  uniqueName,
  waitFor,
  refusal,
} from '@ranking/testing';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';

const run = promisify(execFile);

/** The connection a service makes from `env` (validated as at start-up), as `principal` over TLS. */
const connectionOf = (principal: Principal, env: Record<string, string | undefined> = {}) =>
  kafkaConnection(loadEnvironment({ ...principalTlsEnv(principal), ...env }));

/** A kafkajs client on `connection` that gives up at once (a refusal is final). */
const impatient = ({ brokers, tls, sasl }: KafkaConnection) =>
  new Kafka({
    clientId: 'test-tls-impatient',
    brokers: brokers.split(','),
    ...(tls && { ssl: { ...tls } }),
    ...(sasl && { sasl: { ...sasl } as SASLOptions }),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5000,
    retry: { retries: 0 },
  });

/** The failure of a run that must fail: its exit code and output. */
async function failure(running: Promise<unknown>) {
  try {
    await running;
  } catch (error) {
    return error as { code: number; stdout: string; stderr: string };
  }
  throw new Error('the command succeeded');
}

/**
 * The local broker's SASL_SSL listener (deploy/kafka/kafka.sh: SCRAM-SHA-512 over TLS, a
 * certificate signed by the CA in .kafka/tls): the CLI and clients configured as the services
 * are reach it with the CA and are refused without it; plain SASL never goes out without TLS.
 */
describe('Kafka over TLS: the SASL_SSL listener (real Kafka, PostgreSQL)', () => {
  const prefix = `${uniqueName('tls')}.`;
  const topics = topicNames(prefix);
  const dir = mkdtempSync(join(tmpdir(), 'ranking-kafka-tls-'));
  const file = (name: string) => join(dir, name);
  const tlsFile = (name: string) => join(TEST_ENV.kafkaTlsDir, name);
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let setup: { stderr: string };
  /** A producer `ranking producer add` made over TLS, and what it printed. */
  const producer = uniqueName('tls').toLowerCase();
  const producerTopics = producerTopicNames(producer, prefix);
  /** The CLI as the admin over TLS, on this suite's database and topics. */
  const asAdmin = () => ({
    env: {
      ...process.env,
      ...principalTlsEnv(PRINCIPALS.admin),
      DATABASE_URL: database.url,
      KAFKA_TOPIC_PREFIX: prefix,
    },
  });
  /** A login as the producer's user with `password`: true, or the refusal. */
  const logsIn = async (password: string): Promise<true | string> => {
    const admin = impatient({
      ...connectionOf(PRINCIPALS.ops),
      sasl: { mechanism: 'scram-sha-512', username: producerPrincipal(producer), password },
    }).admin();
    try {
      await admin.connect();
      return true;
    } catch (error) {
      return (error as Error).message;
    } finally {
      await admin.disconnect();
    }
  };
  let added: {
    producer: string;
    ladders: string[];
    kafka: { username: string; password: string; topic: string; rejections: string };
    token: string;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // `ranking setup` as the admin over TLS creates this suite's topics and ACLs.
    setup = await run(process.execPath, ['bin/ranking.js', 'setup'], {
      env: {
        ...process.env,
        ...principalTlsEnv(PRINCIPALS.admin),
        DATABASE_URL: database.url,
        KAFKA_TOPIC_PREFIX: prefix,
        LOG_LEVEL: 'info',
      },
    });
    // A game server as a producer, made by the CLI as the admin over TLS (ADR 39).
    const made = await run(
      process.execPath,
      ['bin/ranking.js', 'producer', 'add', producer, '--ladders', 'igame-gomoku'],
      asAdmin(),
    );
    added = JSON.parse(made.stdout) as typeof added;
    // A CA that did not sign the broker's certificate; a client certificate that no CA signed.
    writeFileSync(file('other-ca.pem'), rootCertificates[0]!);
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
        ...['-keyout', file('self-key.pem'), '-out', file('self.pem')],
        ...['-days', '1', '-subj', '/CN=nobody'],
      ],
      { stdio: 'pipe' },
    );
  }, 120_000);

  afterAll(async () => {
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      await admin.deleteTopics({
        topics: [...Object.values(topics), ...Object.values(producerTopics)].filter((t) =>
          existing.has(t),
        ),
      });
    } finally {
      await admin.disconnect();
    }
    await revokeAcls(prefix, [{ name: producer }]);
    await deleteScramUser(testKafka(), producerPrincipal(producer));
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('`ranking setup` as the admin over TLS created the topics', () => {
    expect(jsonLines(setup.stderr)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          topicsCreated: expect.arrayContaining(Object.values(topics)),
        }),
      ]),
    );
  });

  it('`ranking producer add` printed the producer once: its user, password, topics and token', () => {
    expect(added).toEqual({
      producer,
      ladders: ['igame-gomoku'],
      kafka: {
        username: producerPrincipal(producer),
        password: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        topic: producerTopics.intake,
        rejections: producerTopics.rejections,
      },
      token: expect.stringMatching(/^rk_[0-9a-f]{12}_/),
    });
  });

  it('with the CA, the producer writes its topic as its own user and the intake service consumes it over TLS', async () => {
    const connection: KafkaConnection = {
      ...connectionOf(PRINCIPALS.ops),
      sasl: {
        mechanism: 'scram-sha-512',
        username: added.kafka.username,
        password: added.kafka.password,
      },
    };
    const sender = kafkaClient(connection, 'test-tls-game').producer();
    const value = `{"over":"tls","id":"${uniqueName('m')}"}`;
    await sender.connect();
    try {
      const [sent] = await sender.send({
        topic: added.kafka.topic,
        messages: [{ key: 'igame-gomoku', value }],
      });
      expect(sent!.errorCode).toBe(0);
    } finally {
      await sender.disconnect();
    }

    const consumer = kafkaClient(connectionOf(PRINCIPALS.intake), 'test-tls-intake').consumer({
      groupId: intakeGroup(producer, prefix),
    });
    const received: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [added.kafka.topic], fromBeginning: true });
      await consumer.run({
        eachMessage: ({ message }) => {
          received.push(message.value?.toString() ?? '');
          return Promise.resolve();
        },
      });
      await waitFor(() => received.includes(value), { timeout: 60_000, what: 'the message' });
    } finally {
      await consumer.disconnect();
    }
  });

  it('with a client certificate the CA signed (mutual TLS), a client connects', async () => {
    const admin = kafkaClient(
      connectionOf(PRINCIPALS.ops, {
        KAFKA_SSL_CERT_FILE: tlsFile('client.pem'),
        KAFKA_SSL_KEY_FILE: tlsFile('client-key.pem'),
      }),
      'test-tls-mtls',
    ).admin();
    await admin.connect();
    try {
      expect(await admin.listTopics()).toEqual(expect.arrayContaining([topics.ladderEvents]));
    } finally {
      await admin.disconnect();
    }
  });

  it.each([
    ['without the CA (Node trusts only the public roots)', {}],
    ['with a CA that did not sign the broker', { KAFKA_SSL_CA_FILE: file('other-ca.pem') }],
  ])('refuses the broker %s: its certificate does not verify', async (_how, env) => {
    const connection = connectionOf(PRINCIPALS.ops, {
      KAFKA_SSL_CA_FILE: undefined,
      ...env,
    });
    const admin = impatient(connection).admin();
    expect(await refusal(() => admin.connect())).toMatch(
      /Connection error: (self-signed certificate in certificate chain|unable to get local issuer certificate)/,
    );
    await admin.disconnect();
  });

  it('the broker refuses a client certificate its CA did not sign', async () => {
    const admin = impatient(
      connectionOf(PRINCIPALS.ops, {
        KAFKA_SSL_CERT_FILE: file('self.pem'),
        KAFKA_SSL_KEY_FILE: file('self-key.pem'),
      }),
    ).admin();
    expect(await refusal(() => admin.connect())).toMatch(/alert certificate unknown/);
    await admin.disconnect();
  });

  it('the CLI stops with one line when plain SASL would go out without TLS, or a TLS file is missing', async () => {
    for (const [env, message] of [
      [
        { ...principalEnv(PRINCIPALS.ops), KAFKA_SASL_MECHANISM: 'plain' },
        'KAFKA_SASL_MECHANISM="plain": sends the password in clear text: only with KAFKA_SSL=true (a SASL_SSL listener)',
      ],
      [
        { ...principalTlsEnv(PRINCIPALS.ops), KAFKA_SSL_CA_FILE: file('missing.pem') },
        `KAFKA_SSL_CA_FILE=${JSON.stringify(file('missing.pem'))}: cannot be read (ENOENT)`,
      ],
    ] as const) {
      const stopped = await failure(
        run(process.execPath, ['bin/ranking.js', 'setup'], {
          env: { ...process.env, DATABASE_URL: database.url, ...env },
        }),
      );
      expect(stopped.code).toBe(1);
      expect(jsonLines(stopped.stderr)).toEqual([expect.objectContaining({ message })]);
    }
  });

  it('a service stops at start-up with one line naming a missing TLS file', async () => {
    const service = new ServiceProcess('dist/apps/rating-service/src/main.js', {
      ...principalTlsEnv(PRINCIPALS.rating),
      DATABASE_URL: database.url,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_SSL_CERT_FILE: tlsFile('client.pem'),
      KAFKA_SSL_KEY_FILE: file('missing-key.pem'),
    });
    service.start();
    await waitFor(() => !service.alive(), { timeout: 30_000, what: 'the service to stop' });
    expect(service.status()).toBe('exited with code 1');
    expect(service.output.trim()).toBe(
      `rating-service: KAFKA_SSL_KEY_FILE=${JSON.stringify(file('missing-key.pem'))}: cannot be read (ENOENT)`,
    );
  });

  it('a service runs over TLS: ready on its principal', async () => {
    const service = new ServiceProcess('dist/apps/rating-service/src/main.js', {
      ...principalTlsEnv(PRINCIPALS.rating),
      DATABASE_URL: database.url,
      KAFKA_TOPIC_PREFIX: prefix,
    });
    service.start();
    try {
      const url = await service.url();
      await waitFor(async () => (await fetch(`${url}/health/ready`)).status === 200, {
        timeout: 60_000,
        what: 'the rating service to be ready',
      });
      expect(service.output).not.toMatch(/AUTHORIZATION_FAILED|certificate/i);
    } finally {
      await service.stop();
    }
  }, 120_000);

  it('`ranking producer add` again sets the ladders and keeps the credentials; `remove` takes the user, the grants and the row away', async () => {
    const again = JSON.parse(
      (
        await run(
          process.execPath,
          ['bin/ranking.js', 'producer', 'add', producer, '--ladders', 'igame-gomoku,qq-gomoku'],
          asAdmin(),
        )
      ).stdout,
    ) as typeof added;
    expect(again).toMatchObject({
      producer,
      ladders: ['igame-gomoku', 'qq-gomoku'],
      kafka: { password: null },
      token: null,
    });
    expect(await logsIn(added.kafka.password)).toBe(true);
    const listed = JSON.parse(
      (await run(process.execPath, ['bin/ranking.js', 'producer', 'list'], asAdmin())).stdout,
    ) as { producers: { producer: string; ladders: string[] }[] };
    expect(listed.producers).toEqual([
      expect.objectContaining({ producer, ladders: ['igame-gomoku', 'qq-gomoku'] }),
    ]);
    await run(process.execPath, ['bin/ranking.js', 'producer', 'remove', producer], asAdmin());
    expect(await logsIn(added.kafka.password)).toMatch(/SASL|AUTHENTICATION|Authentication/i);
    const gone = JSON.parse(
      (await run(process.execPath, ['bin/ranking.js', 'producer', 'list'], asAdmin())).stdout,
    ) as { producers: unknown[] };
    expect(gone.producers).toEqual([]);
  });
});
