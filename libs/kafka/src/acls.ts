import kafkajs, { type AclEntry, type AclFilter, type Admin } from 'kafkajs';
import { topicNames } from './topic-setup.js';

/**
 * The SCRAM principals of the system (deploy/kafka/kafka.sh makes their credentials locally).
 * Each gets exactly the ACLs of its job (`rankingAcls`); anything not granted is denied.
 */
export const PRINCIPALS = {
  /** `ranking setup`: creates topics and writes these ACLs. A super user of the broker. */
  admin: 'admin',
  /**
   * The operators' CLI: corrections, penalties, annulments on the ladder log; reads dead letters
   * and sends them again the way they came (`ranking redrive`: the intake or the ladder log),
   * reading the intake's rejections to tell what became of them.
   */
  ops: 'ops',
  /** Game servers: they publish game results to the intake and read their own rejections. */
  gameServer: 'game-server',
  /**
   * `ranking simulate`: live games through the intake as a game server's; its backfill and
   * tournaments (past days with their closes and adjudications) onto the ladder log, in order.
   */
  simulator: 'simulator',
  /** The intake: moves admitted game results into the ladder log, rejects the rest. */
  intake: 'intake-service',
  rating: 'rating-service',
  maintenance: 'maintenance-service',
  /** Reads rating changes; writes the game servers' HTTP submissions to the intake (ADR 34). */
  leaderboard: 'leaderboard-service',
} as const;

export type Principal = (typeof PRINCIPALS)[keyof typeof PRINCIPALS];

/** The services' consumer groups, under the same prefix as the topics. */
export const consumerGroups = (prefix = '') => ({
  intake: `${prefix}intake-service`,
  rating: `${prefix}rating-service`,
  maintenance: `${prefix}maintenance-service`,
  leaderboard: `${prefix}leaderboard-service`,
});

/**
 * Groups a principal may name freely, by prefix: each game server reads its rejections in a
 * group of its own choosing that starts with `game-server`, the operators' tools with `ops`.
 */
export const consumerGroupPrefixes = (prefix = '') => ({
  gameServer: `${prefix}game-server`,
  ops: `${prefix}ops`,
});

// kafkajs is CommonJS: Node sees only some of its exports as named ones.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
type AclOperation = (typeof AclOperationTypes)[keyof typeof AclOperationTypes];
type AclResource = (typeof AclResourceTypes)[keyof typeof AclResourceTypes];

const { TOPIC, GROUP } = AclResourceTypes;
const { READ, WRITE, DESCRIBE } = AclOperationTypes;
const { LITERAL, PREFIXED } = ResourcePatternTypes;

const allow = (
  principal: Principal,
  resourceType: AclResource,
  resourceName: string,
  operations: readonly AclOperation[],
  resourcePatternType: number = LITERAL,
): AclEntry[] =>
  operations.map((operation) => ({
    principal: `User:${principal}`,
    host: '*',
    resourceType,
    resourceName,
    resourcePatternType,
    operation,
    permissionType: AclPermissionTypes.ALLOW,
  }));

/** Describe on a topic lets a client fetch its metadata and end offsets. */
const produces = (principal: Principal, topic: string) =>
  allow(principal, TOPIC, topic, [WRITE, DESCRIBE]);
const reads = (principal: Principal, topic: string) =>
  allow(principal, TOPIC, topic, [READ, DESCRIBE]);
const joins = (principal: Principal, group: string, pattern: number = LITERAL) =>
  allow(principal, GROUP, group, [READ, DESCRIBE], pattern);

/**
 * Every ACL of the system for topics and groups under `prefix` ('' in production; tests use
 * their own). Only reads, writes and describes: no principal but the admin (a super user,
 * which needs none) may create topics or administer ACLs. The ladder log is written by the
 * intake, the maintenance service, the operators' CLI and the simulator, never by a game server.
 */
export function rankingAcls(prefix = ''): AclEntry[] {
  const topics = topicNames(prefix);
  const groups = consumerGroups(prefix);
  const freeGroups = consumerGroupPrefixes(prefix);
  const { ops, gameServer, simulator, intake, rating, maintenance, leaderboard } = PRINCIPALS;
  return [
    ...produces(gameServer, topics.gameResults),
    ...reads(gameServer, topics.gameResultsRejected),
    ...joins(gameServer, freeGroups.gameServer, PREFIXED),

    ...produces(simulator, topics.gameResults),
    ...produces(simulator, topics.ladderEvents),

    ...reads(intake, topics.gameResults),
    ...joins(intake, groups.intake),
    ...produces(intake, topics.ladderEvents),
    ...produces(intake, topics.gameResultsRejected),
    ...produces(intake, topics.deadLetter),

    ...reads(rating, topics.ladderEvents),
    ...joins(rating, groups.rating),
    ...produces(rating, topics.ratingChanges),
    ...produces(rating, topics.deadLetter),

    ...allow(maintenance, TOPIC, topics.ladderEvents, [READ, WRITE, DESCRIBE]),
    ...joins(maintenance, groups.maintenance),
    ...produces(maintenance, topics.deadLetter),

    ...reads(leaderboard, topics.ratingChanges),
    ...joins(leaderboard, groups.leaderboard),
    // POST /v1/games (ADR 34): game servers' results onto the intake, never the ladder log.
    ...produces(leaderboard, topics.gameResults),

    ...produces(ops, topics.ladderEvents),
    ...reads(ops, topics.deadLetter),
    // `ranking redrive` (ADR 31): a dead letter of the intake goes back to the intake, and what
    // the intake then decides is read from its rejections.
    ...produces(ops, topics.gameResults),
    ...reads(ops, topics.gameResultsRejected),
    ...joins(ops, freeGroups.ops, PREFIXED),
  ];
}

/** An ACL as one comparable string. */
const aclKey = (a: AclEntry): string =>
  [
    a.principal,
    a.host,
    a.resourceType,
    a.resourceName,
    a.resourcePatternType,
    a.operation,
    a.permissionType,
  ].join('\u0000');

/**
 * The grants found on the broker that `desired` no longer holds (an older version's, such as
 * game servers writing the ladder log or ops administering the cluster), among those it owns:
 * the system's principals' grants on its own resources under `prefix` (its topics and groups,
 * by name, and the cluster). Other prefixes' grants, and other principals', are left alone.
 */
export function staleAcls(
  existing: readonly AclEntry[],
  desired: readonly AclEntry[],
  prefix = '',
): AclEntry[] {
  const principals = new Set(Object.values(PRINCIPALS).map((p) => `User:${p}`));
  const owned = new Set<string>([
    ...Object.values(topicNames(prefix)),
    ...Object.values(consumerGroups(prefix)),
    ...Object.values(consumerGroupPrefixes(prefix)),
    `${prefix}ranking.`,
    'kafka-cluster',
  ]);
  const wanted = new Set(desired.map(aclKey));
  return existing.filter(
    (a) => principals.has(a.principal) && owned.has(a.resourceName) && !wanted.has(aclKey(a)),
  );
}

/** Every ALLOW grant of the system's principals on the broker. */
async function systemGrants(admin: Admin): Promise<AclEntry[]> {
  const found: AclEntry[] = [];
  for (const principal of Object.values(PRINCIPALS)) {
    const { resources } = await admin.describeAcls({
      resourceType: AclResourceTypes.ANY,
      resourcePatternType: ResourcePatternTypes.ANY,
      principal: `User:${principal}`,
      host: '*',
      operation: AclOperationTypes.ANY,
      permissionType: AclPermissionTypes.ALLOW,
    });
    for (const r of resources)
      for (const acl of r.acls)
        found.push({
          resourceType: r.resourceType,
          resourceName: r.resourceName,
          resourcePatternType: r.resourcePatternType,
          principal: acl.principal,
          host: acl.host,
          operation: acl.operation,
          permissionType: acl.permissionType,
        });
  }
  return found;
}

/** What `ensureAcls` did. */
export interface AclsApplied {
  /** False where the broker has no authorizer (a development broker without security). */
  readonly authorizer: boolean;
  /** Stale grants it removed. */
  readonly removed: readonly AclEntry[];
}

/**
 * Writes the ACLs (creating an existing one is a no-op) and removes the system's stale grants
 * under `prefix` (`staleAcls`), so that an upgrade takes a privilege away as surely as it gives
 * one. Writes nothing where the broker has no authorizer.
 */
export async function ensureAcls(
  admin: Admin,
  acls: readonly AclEntry[],
  prefix = '',
): Promise<AclsApplied> {
  try {
    await admin.createAcls({ acl: [...acls] });
  } catch (error) {
    if ((error as { type?: unknown }).type === 'SECURITY_DISABLED')
      return { authorizer: false, removed: [] };
    throw error;
  }
  const removed = staleAcls(await systemGrants(admin), acls, prefix);
  if (removed.length > 0) await deleteAcls(admin, removed);
  await untilInForce(admin, acls);
  return { authorizer: true, removed };
}

/** The grants of `desired` that `existing` lacks. */
export function missingAcls(
  existing: readonly AclEntry[],
  desired: readonly AclEntry[],
): AclEntry[] {
  const found = new Set(existing.map(aclKey));
  return desired.filter((a) => !found.has(aclKey(a)));
}

/**
 * Waits until the broker describes every grant of `acls`. A KRaft controller answers CreateAcls
 * once it has committed them; the broker's authorizer applies them a little later (over 250 ms
 * on a busy machine), and until then it denies them: a client started right after `ranking
 * setup` was refused its own topic (seen on Kafka 3.9 and 4.4 alike, ADR 29). DescribeAcls is
 * answered by that same authorizer, so once it lists them all they are in force there.
 */
async function untilInForce(admin: Admin, acls: readonly AclEntry[], timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = missingAcls(await systemGrants(admin), acls);
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`the broker still lacks ${missing.length} of the ACLs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Removes exactly these ACLs (a test's, at its end). */
export async function deleteAcls(admin: Admin, acls: readonly AclEntry[]): Promise<void> {
  const filters: AclFilter[] = acls.map((acl) => ({ ...acl }));
  await admin.deleteAcls({ filters });
}
