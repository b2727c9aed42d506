import kafkajs, { type AclEntry, type AclFilter, type Admin } from 'kafkajs';
import {
  producerRejectionTopicPrefix,
  producerTopicNames,
  producerTopicPrefix,
  topicNames,
} from './topic-setup.js';

/**
 * The SCRAM principals of the system (deploy/kafka/kafka.sh makes their credentials locally).
 * Each gets exactly the ACLs of its job (`rankingAcls`); anything not granted is denied. Game
 * servers are not among them: each is a producer with a principal of its own
 * (`producerPrincipal`, made by `ranking producer add`, ADR 39).
 */
export const PRINCIPALS = {
  /** `ranking setup`: creates topics and writes these ACLs. A super user of the broker. */
  admin: 'admin',
  /**
   * The operators' CLI: corrections, penalties, annulments on the ladder log; reads dead letters
   * and sends them again the way they came (`ranking redrive`: a producer's intake topic or the
   * ladder log), reading the producers' rejections to tell what became of them.
   */
  ops: 'ops',
  /** The intake: moves each producer's admitted game results into the ladder log, rejects the rest. */
  intake: 'intake-service',
  rating: 'rating-service',
  maintenance: 'maintenance-service',
  /** Reads rating changes; writes producers' HTTP submissions to their intake topics (ADR 34). */
  leaderboard: 'leaderboard-service',
} as const;

export type Principal = (typeof PRINCIPALS)[keyof typeof PRINCIPALS];

/**
 * Principals of earlier versions whose grants `ranking setup` takes away: `game-server`, the one
 * identity every game server shared, and `simulator`, now a producer like any other.
 */
export const RETIRED_PRINCIPALS = ['game-server', 'simulator'] as const;

/** A producer's Kafka principal: never one of the system's, whatever the producer's name. */
export const producerPrincipal = (producer: string): string => `producer-${producer}`;

/** The services' consumer groups, under the same prefix as the topics. */
export const consumerGroups = (prefix = '') => ({
  rating: `${prefix}rating-service`,
  maintenance: `${prefix}maintenance-service`,
  leaderboard: `${prefix}leaderboard-service`,
});

/** The intake's consumer group for one producer's topic (one consumer a producer, ADR 39). */
export const intakeGroup = (producer: string, prefix = '') =>
  `${intakeGroupPrefix(prefix)}${producer}`;
export const intakeGroupPrefix = (prefix = '') => `${prefix}intake-service.`;

/**
 * Groups a principal may name freely, by prefix: the operators' tools start with `ops`; a
 * producer's own (reading its rejections) with `producer.<name>.`, a prefix no other producer's
 * and no service's group begins with (names have no dot).
 */
export const consumerGroupPrefixes = (prefix = '') => ({
  ops: `${prefix}ops`,
  producers: `${prefix}producer.`,
});
export const producerGroupPrefix = (producer: string, prefix = '') =>
  `${consumerGroupPrefixes(prefix).producers}${producer}.`;

/** A producer as the ACLs see it: its name, and whether it may also write the ladder log. */
export interface ProducerGrant {
  readonly name: string;
  /** The simulator's history (`ranking setup --with-simulator`): the ladder log too. */
  readonly backfill?: boolean;
}

// kafkajs is CommonJS: Node sees only some of its exports as named ones.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
type AclOperation = (typeof AclOperationTypes)[keyof typeof AclOperationTypes];
type AclResource = (typeof AclResourceTypes)[keyof typeof AclResourceTypes];

const { TOPIC, GROUP } = AclResourceTypes;
const { READ, WRITE, DESCRIBE } = AclOperationTypes;
const { LITERAL, PREFIXED } = ResourcePatternTypes;

const allow = (
  principal: string,
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
const produces = (principal: string, topic: string, pattern: number = LITERAL) =>
  allow(principal, TOPIC, topic, [WRITE, DESCRIBE], pattern);
const reads = (principal: string, topic: string, pattern: number = LITERAL) =>
  allow(principal, TOPIC, topic, [READ, DESCRIBE], pattern);
const joins = (principal: string, group: string, pattern: number = LITERAL) =>
  allow(principal, GROUP, group, [READ, DESCRIBE], pattern);

/**
 * One producer's grants (ADR 39): it writes its intake topic and reads its own rejections in
 * groups of its own prefix; the intake reads that topic, and the leaderboard service writes it
 * (the producer's HTTP submissions). Nothing of another producer's.
 */
export function producerAcls(producer: ProducerGrant, prefix = ''): AclEntry[] {
  const topics = producerTopicNames(producer.name, prefix);
  const principal = producerPrincipal(producer.name);
  return [
    ...produces(principal, topics.intake),
    ...reads(principal, topics.rejections),
    ...joins(principal, producerGroupPrefix(producer.name, prefix), PREFIXED),
    ...(producer.backfill ? produces(principal, topicNames(prefix).ladderEvents) : []),
    ...reads(PRINCIPALS.intake, topics.intake),
    ...produces(PRINCIPALS.leaderboard, topics.intake),
    // `ranking redrive` (ADR 31): a dead letter of the intake goes back to its producer's topic.
    ...produces(PRINCIPALS.ops, topics.intake),
  ];
}

/**
 * Every ACL of the system for topics and groups under `prefix` ('' in production; tests use
 * their own), with each producer's. Only reads, writes and describes: no principal but the
 * admin (a super user, which needs none) may create topics or administer ACLs. The ladder log
 * is written by the intake, the maintenance service and the operators' CLI (and a producer
 * granted backfill), never by a game server.
 */
export function rankingAcls(prefix = '', producers: readonly ProducerGrant[] = []): AclEntry[] {
  const topics = topicNames(prefix);
  const groups = consumerGroups(prefix);
  const freeGroups = consumerGroupPrefixes(prefix);
  const rejections = producerRejectionTopicPrefix(prefix);
  const { ops, intake, rating, maintenance, leaderboard } = PRINCIPALS;
  return [
    ...joins(intake, intakeGroupPrefix(prefix), PREFIXED),
    ...produces(intake, topics.ladderEvents),
    ...produces(intake, rejections, PREFIXED),
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

    ...produces(ops, topics.ladderEvents),
    ...reads(ops, topics.deadLetter),
    // `ranking redrive` (ADR 31): what the intake decides of a message sent back to its
    // producer's topic is read from that producer's rejections.
    ...reads(ops, rejections, PREFIXED),
    ...joins(ops, freeGroups.ops, PREFIXED),

    ...producers.flatMap((p) => producerAcls(p, prefix)),
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
 * game servers writing the ladder log, or a removed producer's), among those it owns: the
 * grants of the system's principals, its retired ones and the producers' on its own resources
 * under `prefix` (its topics and groups by name, the producers' topics and groups by their
 * prefixes, and the cluster). Other prefixes' grants, and other principals', are left alone.
 */
export function staleAcls(
  existing: readonly AclEntry[],
  desired: readonly AclEntry[],
  prefix = '',
): AclEntry[] {
  const owned = new Set<string>([
    ...Object.values(topicNames(prefix)),
    ...Object.values(consumerGroups(prefix)),
    ...Object.values(consumerGroupPrefixes(prefix)),
    intakeGroupPrefix(prefix),
    `${prefix}ranking.`,
    // The shared intake of before, its rejections and the groups of `game-server` and `intake-service`.
    `${prefix}ranking.game-results`,
    `${prefix}ranking.game-results.rejected`,
    `${prefix}game-server`,
    `${prefix}intake-service`,
    'kafka-cluster',
  ]);
  const ownedByPrefix = [producerTopicPrefix(prefix), consumerGroupPrefixes(prefix).producers];
  const isOwned = (name: string) =>
    owned.has(name) || ownedByPrefix.some((p) => name.startsWith(p));
  const wanted = new Set(desired.map(aclKey));
  return existing.filter(
    (a) => isSystemPrincipal(a.principal) && isOwned(a.resourceName) && !wanted.has(aclKey(a)),
  );
}

/** The principals whose grants `ranking setup` owns: the system's, retired ones, producers'. */
const isSystemPrincipal = (principal: string): boolean => {
  const name = principal.replace(/^User:/, '');
  return (
    principal.startsWith('User:') &&
    ((Object.values(PRINCIPALS) as string[]).includes(name) ||
      (RETIRED_PRINCIPALS as readonly string[]).includes(name) ||
      name.startsWith(producerPrincipal('')))
  );
};

/**
 * Every ALLOW grant of the system's principals on the broker: asked by principal for the
 * system's own and retired ones, and among every grant for the producers' (the broker cannot
 * filter by a principal's prefix).
 */
async function systemGrants(admin: Admin): Promise<AclEntry[]> {
  const found: AclEntry[] = [];
  const { resources } = await admin.describeAcls({
    resourceType: AclResourceTypes.ANY,
    resourcePatternType: ResourcePatternTypes.ANY,
    operation: AclOperationTypes.ANY,
    permissionType: AclPermissionTypes.ALLOW,
  });
  for (const r of resources)
    for (const acl of r.acls)
      if (isSystemPrincipal(acl.principal))
        found.push({
          resourceType: r.resourceType,
          resourceName: r.resourceName,
          resourcePatternType: r.resourcePatternType,
          principal: acl.principal,
          host: acl.host,
          operation: acl.operation,
          permissionType: acl.permissionType,
        });
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
