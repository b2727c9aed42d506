import { type Environment, loadEnvironment } from '@ranking/config';
import {
  ensureAcls,
  ensureTopics,
  kafkaClient,
  kafkaConnection,
  rankingAcls,
  topicLayout,
} from '@ranking/kafka';
import {
  type DatabaseSetupReport,
  LOGIN_ROLES,
  type LoginRole,
  OWNER_ROLE,
  setUpDatabase,
} from '@ranking/persistence';
import kafkajs, { type AclEntry } from 'kafkajs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';

interface SetupFlags {
  skipKafka?: boolean;
}

/**
 * `ranking setup`: creates the database if missing and its roles, runs migrations as the owner
 * role, grants each login role what database-roles.ts lists (ADR 40), creates the Kafka topics
 * and writes the principals' ACLs (where the broker has an authorizer), removing the system's
 * stale ones. Run it as a PostgreSQL superuser and as the admin principal: no other may create
 * roles, topics or ACLs.
 */
@Command({
  name: 'setup',
  description:
    'create the database if missing and its roles, run migrations, grant each role its ' +
    'privileges, create the Kafka topics and their ACLs',
})
export class SetupCommand extends CommandRunner {
  async run(_args: string[], flags: SetupFlags): Promise<void> {
    const env = loadEnvironment();
    logDatabase(await setUpDatabase(env.DATABASE_URL, rolePasswords(env)));
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

/** The login roles' passwords the environment gives (DATABASE_<ROLE>_PASSWORD). */
function rolePasswords(env: Environment): Partial<Record<LoginRole, string>> {
  const given: Partial<Record<LoginRole, string>> = {};
  for (const role of Object.keys(LOGIN_ROLES) as LoginRole[]) {
    const password = (env as unknown as Record<string, string | undefined>)[
      LOGIN_ROLES[role].passwordVariable
    ];
    if (password !== undefined) given[role] = password;
  }
  return given;
}

function logDatabase(report: DatabaseSetupReport): void {
  const { created, roles, handedOver, migrations, grants } = report;
  log.info(
    `database ${created ? 'created' : 'present'}; migrations run: ${migrations.length ? migrations.join(', ') : 'none pending'}`,
    { database: created ? 'created' : 'present', migrations },
  );
  log.info(
    `roles ${roles.created.length ? `created: ${roles.created.join(', ')}` : 'present'}` +
      `${roles.passwordsSet.length ? `; passwords set: ${roles.passwordsSet.join(', ')}` : ''}` +
      `${handedOver.length ? `; now owned by ${OWNER_ROLE}: ${handedOver.join(', ')}` : ''}` +
      `; grants applied (${grants.statements} statements)` +
      `${grants.skipped.length ? `; tables not there yet, skipped: ${grants.skipped.join(', ')}` : ''}`,
    {
      rolesCreated: roles.created,
      passwordsSet: roles.passwordsSet,
      handedOver,
      grantStatements: grants.statements,
      skippedTables: grants.skipped,
    },
  );
  if (roles.withoutPassword.length > 0)
    log.warn(
      `roles without a password (they log in only where pg_hba.conf trusts them): ${roles.withoutPassword.join(', ')}; set ${roles.withoutPassword
        .map((name) => Object.values(LOGIN_ROLES).find((r) => r.name === name)!.passwordVariable)
        .join(', ')}`,
      { withoutPassword: roles.withoutPassword },
    );
  if (grants.ungoverned.length > 0)
    log.warn(
      `tables without a line in libs/persistence/src/database-roles.ts, so only ${OWNER_ROLE} may use them: ${grants.ungoverned.join(', ')}`,
      { ungovernedTables: grants.ungoverned },
    );
}

/** A grant as operators read it: `User:ops WRITE topic ranking.ladder-events`. */
const describeAcl = (a: AclEntry): string =>
  `${a.principal} ${nameOf(kafkajs.AclOperationTypes, a.operation)} ${nameOf(kafkajs.AclResourceTypes, a.resourceType)} ${a.resourceName}`;
const nameOf = (values: object, value: number): string =>
  (Object.entries(values).find(([, v]) => v === value)?.[0] ?? String(value)).toLowerCase();

const log = new CommandLog('setup', { stream: 'stdout', prefix: '[setup] ' });
