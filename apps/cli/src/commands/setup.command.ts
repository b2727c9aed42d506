import { type Environment, loadEnvironment, loadLadders } from '@ranking/config';
import { kafkaClient, kafkaConnection, type ProducerGrant } from '@ranking/kafka';
import {
  createDataSource,
  type DatabaseSetupReport,
  LOGIN_ROLES,
  type LoginRole,
  OWNER_ROLE,
  ProducerRepository,
  setUpDatabase,
  sqlOf,
} from '@ranking/persistence';
import kafkajs, { type AclEntry } from 'kafkajs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { applyKafkaGrants, producerGrant } from '../kafka-grants.js';
import { SIMULATOR_PRODUCER } from '../simulator-producer.js';

interface SetupFlags {
  skipKafka?: boolean;
  withSimulator?: boolean;
}

/**
 * `ranking setup`: creates the database if missing and its roles, runs migrations as the owner
 * role, grants each login role what database-roles.ts lists (ADR 40), creates the Kafka topics
 * (the contract's and each producer's) and writes the principals' ACLs (where the broker has an
 * authorizer), removing the system's stale ones. Run it as a PostgreSQL superuser and as the
 * admin principal: no other may create roles, topics or ACLs. The simulator's write on the
 * ladder log (its backfill) is granted only with --with-simulator, which also registers it as a
 * producer of every ladder; without it, that grant is taken away.
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
    const db = createDataSource(env.DATABASE_URL, 'ranking-setup');
    await db.initialize();
    let producers: ProducerGrant[];
    try {
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
  return (await registry.list()).map(producerGrant);
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
