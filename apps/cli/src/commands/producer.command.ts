import { randomBytes } from 'node:crypto';
import { loadEnvironment, loadLadders, type Environment } from '@ranking/config';
import { producerNameProblem, type Producer } from '@ranking/contracts';
import { issueServiceToken } from '@ranking/ingestion';
import {
  deleteScramUser,
  kafkaClient,
  kafkaConnection,
  type ProducerGrant,
  producerPrincipal,
  producerTopicNames,
  upsertScramUser,
} from '@ranking/kafka';
import {
  createDataSource,
  ProducerRepository,
  ServiceTokenRepository,
  sqlOf,
} from '@ranking/persistence';
import type { Kafka } from 'kafkajs';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import type { DataSource } from 'typeorm';
import { applyKafkaGrants, producerGrant } from '../kafka-grants.js';
import { defaultTokenExpiry, tokenIssuer } from '../token-issuer.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** The registry and the broker, as the admin principal (topics, grants, SCRAM users). */
async function withRegistry<T>(
  work: (env: Environment, db: DataSource, kafka: Kafka) => Promise<T>,
): Promise<T> {
  const env = loadEnvironment();
  const db = createDataSource(env.DATABASE_URL, 'ranking-producer');
  await db.initialize();
  try {
    return await work(
      env,
      db,
      kafkaClient(kafkaConnection(env), 'ranking-producer', env.LOG_LEVEL),
    );
  } finally {
    await db.destroy();
  }
}

/** Topics and grants for exactly these producers (the registry's, with or without one). */
async function grantAll(env: Environment, kafka: Kafka, producers: readonly ProducerGrant[]) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await applyKafkaGrants(admin, env.KAFKA_TOPIC_PREFIX, producers);
  } finally {
    await admin.disconnect();
  }
}

interface AddFlags {
  ladders?: string;
  rotate?: boolean;
  issuedBy?: string;
}

/**
 * `ranking producer add NAME --ladders A,B` (ADR 39): a game server as a producer. Its topics,
 * its grants and its Kafka user first, then its row: the intake never reads a producer whose
 * topic it may not read. Idempotent: again, it sets the ladders and keeps the credentials
 * (printed as null), unless --rotate gives new ones (the old password stops working at once;
 * the old tokens stay until revoked, so a rotation can be rolled out).
 */
@SubCommand({
  name: 'add',
  arguments: '<name>',
  description:
    'add a producer (or set its ladders): --ladders A,B [--rotate]; prints its credentials once (--ladders may be left out for one that exists)',
})
export class ProducerAddCommand extends CommandRunner {
  async run([name]: string[], flags: AddFlags): Promise<void> {
    const problem = producerNameProblem(name ?? '');
    if (problem !== null) throw new Error(problem);
    const given = [...new Set((flags.ladders ?? '').split(',').filter((l) => l !== ''))].sort();
    const known = loadLadders(loadEnvironment());
    const unknown = given.filter((l) => !known.has(l));
    if (unknown.length > 0)
      throw new Error(
        `--ladders: no ladder ${unknown.join(', ')}; known: ${[...known.keys()].join(', ')}`,
      );
    await withRegistry(async (env, db, kafka) => {
      const repository = new ProducerRepository(sqlOf(db.manager));
      const before = await repository.get(name!);
      // Without --ladders, a producer keeps its own (e.g. --rotate alone).
      const ladders = given.length > 0 ? given : [...(before?.ladders ?? [])];
      if (ladders.length === 0)
        throw new Error('producer add needs --ladders A,B: the ladders the producer may write');
      const producer: Producer = { name: name!, ladders };
      const fresh = before === null || flags.rotate === true;
      // Asked before anything changes, and only when a token is issued.
      const issuedBy = fresh ? tokenIssuer(flags.issuedBy) : null;
      const others = (await repository.list()).filter((p) => p.name !== producer.name);
      await grantAll(env, kafka, [
        ...others.map(producerGrant),
        { name: producer.name, backfill: before?.backfill ?? false },
      ]);
      const password = fresh ? randomBytes(24).toString('base64url') : null;
      const username = producerPrincipal(producer.name);
      if (password !== null) await upsertScramUser(kafka, username, password);
      const token = fresh ? issueServiceToken() : null;
      await db.transaction(async (manager) => {
        await new ProducerRepository(sqlOf(manager)).upsert(producer.name, ladders);
        if (token && issuedBy !== null)
          await new ServiceTokenRepository(sqlOf(manager)).issue({
            tokenId: token.tokenId,
            service: producer.name,
            producer: producer.name,
            ladders,
            scopes: ['ingest'],
            digest: token.digest,
            expiresAt: defaultTokenExpiry(Date.now()),
            issuedBy,
          });
      });
      const topics = producerTopicNames(producer.name, env.KAFKA_TOPIC_PREFIX);
      if (fresh)
        process.stderr.write(
          'the password and token are shown once: store them in the game server’s secrets now\n',
        );
      print({
        producer: producer.name,
        ladders,
        kafka: { username, password, topic: topics.intake, rejections: topics.rejections },
        token: token?.token ?? null,
      });
    });
  }

  @Option({ flags: '--ladders <ids>', description: 'comma-separated ladders it may write' })
  parseLadders(value: string): string {
    return value;
  }

  @Option({ flags: '--rotate', description: 'new Kafka password and a new token, printed once' })
  parseRotate(): boolean {
    return true;
  }

  @Option({
    flags: '--issued-by <name>',
    description: 'who issues its token (default: $USER); the token expires in 90 days',
  })
  parseIssuedBy(value: string): string {
    return value;
  }
}

/** `ranking producer list`: each producer, its ladders, topics and Kafka user. */
@SubCommand({ name: 'list', description: 'list the producers, their ladders and topics' })
export class ProducerListCommand extends CommandRunner {
  async run(): Promise<void> {
    await withRegistry(async (env, db) => {
      const producers = await new ProducerRepository(sqlOf(db.manager)).list();
      print({
        producers: producers.map((p) => ({
          producer: p.name,
          ladders: p.ladders,
          backfill: p.backfill,
          kafka: {
            username: producerPrincipal(p.name),
            ...renamed(producerTopicNames(p.name, env.KAFKA_TOPIC_PREFIX)),
          },
          createdAt: p.createdAt,
          updatedAt: p.updatedAt,
        })),
      });
    });
  }
}

const renamed = (t: { intake: string; rejections: string }) => ({
  topic: t.intake,
  rejections: t.rejections,
});

/**
 * `ranking producer remove NAME`: its row and tokens first (the intake stops consuming it, the
 * API refuses its tokens), then its grants and its Kafka user. Its topics stay, with what they
 * hold: a producer added again goes on where the intake stopped.
 */
@SubCommand({
  name: 'remove',
  arguments: '<name>',
  description: 'remove a producer: its grants, user and tokens',
})
export class ProducerRemoveCommand extends CommandRunner {
  async run([name]: string[]): Promise<void> {
    await withRegistry(async (env, db, kafka) => {
      const repository = new ProducerRepository(sqlOf(db.manager));
      const removed = await repository.remove(name!);
      if (!removed) throw new Error(`no producer ${name}`);
      await grantAll(env, kafka, (await repository.list()).map(producerGrant));
      await deleteScramUser(kafka, producerPrincipal(name!));
      print({ producer: name, removed: true });
    });
  }
}

@Command({
  name: 'producer',
  description:
    'game servers as producers (their topics, Kafka users, grants, tokens): add, list, remove',
  subCommands: [ProducerAddCommand, ProducerListCommand, ProducerRemoveCommand],
})
export class ProducerCommand extends CommandRunner {
  run(): Promise<void> {
    return Promise.reject(new Error('producer needs a subcommand: add, list or remove'));
  }
}
