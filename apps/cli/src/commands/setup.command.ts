import { loadEnvironment } from '@ranking/config';
import { ensureTopics, kafkaClient, topicLayout } from '@ranking/kafka';
import { createDataSource, ensureDatabase, migrate } from '@ranking/persistence';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';

interface SetupFlags {
  skipKafka?: boolean;
}

/** `ranking setup`: creates the database if missing, runs migrations, creates the Kafka topics. */
@Command({
  name: 'setup',
  description: 'create the database if missing, run migrations and create the Kafka topics',
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
    const admin = kafkaClient(env.KAFKA_BROKERS, 'ranking-setup', env.LOG_LEVEL).admin();
    await admin.connect();
    try {
      const topics = await ensureTopics(admin, topicLayout(env.KAFKA_TOPIC_PREFIX));
      log.info(`kafka topics ${topics.length ? `created: ${topics.join(', ')}` : 'present'}`, {
        topicsCreated: topics,
      });
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
