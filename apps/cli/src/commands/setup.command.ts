import { loadEnvironment } from '@ranking/config';
import {
  ensureAcls,
  ensureTopics,
  kafkaClient,
  kafkaConnection,
  rankingAcls,
  topicLayout,
} from '@ranking/kafka';
import { createDataSource, ensureDatabase, migrate } from '@ranking/persistence';
import kafkajs, { type AclEntry } from 'kafkajs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';

interface SetupFlags {
  skipKafka?: boolean;
}

/**
 * `ranking setup`: creates the database if missing, runs migrations, creates the Kafka topics
 * and writes the principals' ACLs (where the broker has an authorizer), removing the system's
 * stale ones. Run it as the admin principal: no other may create topics or ACLs.
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
    try {
      const ran = await migrate(db);
      log.info(
        `database ${created ? 'created' : 'present'}; migrations run: ${ran.length ? ran.join(', ') : 'none pending'}`,
        { database: created ? 'created' : 'present', migrations: ran },
      );
    } finally {
      await db.destroy();
    }
    if (flags.skipKafka) return;
    const admin = kafkaClient(kafkaConnection(env), 'ranking-setup', env.LOG_LEVEL).admin();
    await admin.connect();
    try {
      const topics = await ensureTopics(admin, topicLayout(env.KAFKA_TOPIC_PREFIX));
      log.info(`kafka topics ${topics.length ? `created: ${topics.join(', ')}` : 'present'}`, {
        topicsCreated: topics,
      });
      const acls = rankingAcls(env.KAFKA_TOPIC_PREFIX);
      const applied = await ensureAcls(admin, acls, env.KAFKA_TOPIC_PREFIX);
      log.info(
        applied.authorizer
          ? `kafka ACLs present (${acls.length})${applied.removed.length ? `; removed ${applied.removed.length} stale: ${applied.removed.map(describeAcl).join(', ')}` : ''}`
          : 'kafka has no authorizer: no ACLs',
        { aclsWritten: applied.authorizer ? acls.length : 0, aclsRemoved: applied.removed.length },
      );
    } finally {
      await admin.disconnect();
    }
  }

  @Option({ flags: '--skip-kafka', description: 'only set up PostgreSQL' })
  parseSkipKafka(): boolean {
    return true;
  }
}

/** A grant as operators read it: `User:ops WRITE topic ranking.ladder-events`. */
const describeAcl = (a: AclEntry): string =>
  `${a.principal} ${nameOf(kafkajs.AclOperationTypes, a.operation)} ${nameOf(kafkajs.AclResourceTypes, a.resourceType)} ${a.resourceName}`;
const nameOf = (values: object, value: number): string =>
  (Object.entries(values).find(([, v]) => v === value)?.[0] ?? String(value)).toLowerCase();

const log = new CommandLog('setup', { stream: 'stdout', prefix: '[setup] ' });
