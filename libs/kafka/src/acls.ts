import kafkajs, { type AclEntry, type AclFilter, type Admin } from 'kafkajs';
import { topicNames } from './topic-setup.js';

/** The SCRAM principals of the system (deploy/kafka/kafka.sh makes their credentials locally). */
export const PRINCIPALS = {
  /** The `ranking` CLI: creates topics and ACLs (`setup`), publishes corrections and simulations. */
  ops: 'ops',
  /** Game servers: they only publish game events. */
  gameServer: 'game-server',
  rating: 'rating-service',
  maintenance: 'maintenance-service',
  leaderboard: 'leaderboard-service',
} as const;

export type Principal = (typeof PRINCIPALS)[keyof typeof PRINCIPALS];

/** The consumer groups, under the same prefix as the topics. */
export const consumerGroups = (prefix = '') => ({
  rating: `${prefix}rating-service`,
  maintenance: `${prefix}maintenance-service`,
  leaderboard: `${prefix}leaderboard-service`,
});

// kafkajs is CommonJS: Node sees only some of its exports as named ones.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
type AclOperation = (typeof AclOperationTypes)[keyof typeof AclOperationTypes];
type AclResource = (typeof AclResourceTypes)[keyof typeof AclResourceTypes];

const { TOPIC, GROUP, CLUSTER } = AclResourceTypes;
const { READ, WRITE, DESCRIBE, CREATE, ALTER, ALL, DESCRIBE_CONFIGS } = AclOperationTypes;

const allow = (
  principal: Principal,
  resourceType: AclResource,
  resourceName: string,
  operations: readonly AclOperation[],
  resourcePatternType = ResourcePatternTypes.LITERAL,
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

/**
 * Every ACL of the system for topics and groups under `prefix` ('' in production; tests use
 * their own): each service gets exactly the topics and groups it uses, game servers may only
 * write game events, ops administers the contract's topics. Anything not granted is denied.
 */
export function rankingAcls(prefix = ''): AclEntry[] {
  const topics = topicNames(prefix);
  const groups = consumerGroups(prefix);
  const { ops, gameServer, rating, maintenance, leaderboard } = PRINCIPALS;
  return [
    // Describe on a topic lets a client fetch its metadata and end offsets.
    ...allow(gameServer, TOPIC, topics.ladderEvents, [WRITE, DESCRIBE]),

    ...allow(rating, TOPIC, topics.ladderEvents, [READ, DESCRIBE]),
    ...allow(rating, GROUP, groups.rating, [READ, DESCRIBE]),
    ...allow(rating, TOPIC, topics.ratingChanges, [WRITE, DESCRIBE]),
    ...allow(rating, TOPIC, topics.deadLetter, [WRITE, DESCRIBE]),

    ...allow(maintenance, TOPIC, topics.ladderEvents, [READ, WRITE, DESCRIBE]),
    ...allow(maintenance, GROUP, groups.maintenance, [READ, DESCRIBE]),
    ...allow(maintenance, TOPIC, topics.deadLetter, [WRITE, DESCRIBE]),

    ...allow(leaderboard, TOPIC, topics.ratingChanges, [READ, DESCRIBE]),
    ...allow(leaderboard, GROUP, groups.leaderboard, [READ, DESCRIBE]),

    // ops: the contract's topics (create, read, write, configure) and the cluster's Create
    // (topics), Describe and Alter (ACLs: `ranking setup` writes these).
    ...allow(ops, TOPIC, `${prefix}ranking.`, [ALL], ResourcePatternTypes.PREFIXED),
    ...allow(ops, CLUSTER, 'kafka-cluster', [CREATE, DESCRIBE, ALTER, DESCRIBE_CONFIGS]),
  ];
}

/**
 * Writes the ACLs (creating an existing one is a no-op). Says false, writing nothing, when the
 * broker has no authorizer (a development broker without security).
 */
export async function ensureAcls(admin: Admin, acls: readonly AclEntry[]): Promise<boolean> {
  try {
    await admin.createAcls({ acl: [...acls] });
    return true;
  } catch (error) {
    if ((error as { type?: unknown }).type === 'SECURITY_DISABLED') return false;
    throw error;
  }
}

/** Removes exactly these ACLs (a test's, at its end). */
export async function deleteAcls(admin: Admin, acls: readonly AclEntry[]): Promise<void> {
  const filters: AclFilter[] = acls.map((acl) => ({ ...acl }));
  await admin.deleteAcls({ filters });
}
