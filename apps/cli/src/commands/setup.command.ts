import { loadEnvironment, loadLadders } from '@ranking/config';
import { kafkaClient, kafkaConnection, type ProducerGrant } from '@ranking/kafka';
import {
  createDataSource,
  ensureDatabase,
  migrate,
  ProducerRepository,
  sqlOf,
} from '@ranking/persistence';
import kafkajs, { type AclEntry } from 'kafkajs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { applyKafkaGrants } from '../kafka-grants.js';
import { SIMULATOR_PRODUCER } from '../simulator-producer.js';

interface SetupFlags {
  skipKafka?: boolean;
  withSimulator?: boolean;
}

/**
 * `ranking setup`: creates the database if missing, runs migrations, creates the Kafka topics
 * (the contract's and each producer's) and writes the principals' ACLs (where the broker has an
 * authorizer), removing the system's stale ones. Run it as the admin principal: no other may
 * create topics or ACLs. The simulator's write on the ladder log (its backfill) is granted only
 * with --with-simulator, which also registers it as a producer of every ladder; without it, that
 * grant is taken away.
 */
@Command({
  name: 'setup',
  description:
    'create the database if missing, run migrations, create the Kafka topics and their ACLs',
})
export class SetupCommand extends CommandRunner {
  async run(_args: string[], flags: SetupFlags): Promise<void> {
    const env = loadEnvironment();
    const created = await ensureDatabase(env.DATABASE_URL);
    const db = createDataSource(env.DATABASE_URL, 'ranking-setup');
    await db.initialize();
    let producers: ProducerGrant[];
    try {
      const ran = await migrate(db);
      log.info(
        `database ${created ? 'created' : 'present'}; migrations run: ${ran.length ? ran.join(', ') : 'none pending'}`,
        { database: created ? 'created' : 'present', migrations: ran },
      );
      producers = await registeredProducers(
        new ProducerRepository(sqlOf(db.manager)),
        flags.withSimulator === true,
        [...loadLadders(env).keys()],
      );
    } finally {
      await db.destroy();
    }
    if (flags.skipKafka) return;
    const admin = kafkaClient(kafkaConnection(env), 'ranking-setup', env.LOG_LEVEL).admin();
    await admin.connect();
    try {
      const {
        topicsCreated: topics,
        aclCount,
        acls: applied,
      } = await applyKafkaGrants(admin, env.KAFKA_TOPIC_PREFIX, producers);
      log.info(`kafka topics ${topics.length ? `created: ${topics.join(', ')}` : 'present'}`, {
        topicsCreated: topics,
      });
      log.info(
        applied.authorizer
          ? `kafka ACLs present (${aclCount}, ${producers.length} producers)${applied.removed.length ? `; removed ${applied.removed.length} stale: ${applied.removed.map(describeAcl).join(', ')}` : ''}`
          : 'kafka has no authorizer: no ACLs',
        {
          aclsWritten: applied.authorizer ? aclCount : 0,
          aclsRemoved: applied.removed.length,
          producers: producers.length,
        },
      );
    } finally {
      await admin.disconnect();
    }
  }

  @Option({ flags: '--skip-kafka', description: 'only set up PostgreSQL' })
  parseSkipKafka(): boolean {
    return true;
  }

  @Option({
    flags: '--with-simulator',
    description:
      'register the simulator as a producer of every ladder that may also write the ladder log (its backfill)',
  })
  parseWithSimulator(): boolean {
    return true;
  }
}

/**
 * The producers the grants are for. The simulator's backfill follows the flag each time: asked
 * for, it is registered (of every ladder, if new) with it; not asked for, it loses it.
 */
async function registeredProducers(
  registry: ProducerRepository,
  withSimulator: boolean,
  ladders: readonly string[],
): Promise<ProducerGrant[]> {
  const simulator = await registry.get(SIMULATOR_PRODUCER);
  if (withSimulator || simulator?.backfill)
    await registry.upsert(SIMULATOR_PRODUCER, simulator?.ladders ?? ladders, withSimulator);
  return (await registry.list()).map((p) => ({ name: p.name, backfill: p.backfill }));
}

/** A grant as operators read it: `User:ops WRITE topic ranking.ladder-events`. */
const describeAcl = (a: AclEntry): string =>
  `${a.principal} ${nameOf(kafkajs.AclOperationTypes, a.operation)} ${nameOf(kafkajs.AclResourceTypes, a.resourceType)} ${a.resourceName}`;
const nameOf = (values: object, value: number): string =>
  (Object.entries(values).find(([, v]) => v === value)?.[0] ?? String(value)).toLowerCase();

const log = new CommandLog('setup', { stream: 'stdout', prefix: '[setup] ' });
