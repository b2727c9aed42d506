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
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';

interface SetupFlags {
  skipKafka?: boolean;
}

/**
 * `ranking setup`: creates the database if missing, runs migrations, creates the Kafka topics
 * and writes the principals' ACLs (where the broker has an authorizer).
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
      const written = await ensureAcls(admin, acls);
      log.info(
        written ? `kafka ACLs present (${acls.length})` : 'kafka has no authorizer: no ACLs',
        { aclsWritten: written ? acls.length : 0 },
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

const log = new CommandLog('setup', { stream: 'stdout', prefix: '[setup] ' });
