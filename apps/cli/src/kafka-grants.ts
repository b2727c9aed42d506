import {
  type AclsApplied,
  ensureAcls,
  ensureTopics,
  type ProducerGrant,
  producerTopicLayout,
  rankingAcls,
  topicLayout,
} from '@ranking/kafka';
import type { RegisteredProducer } from '@ranking/persistence';
import type { Admin } from 'kafkajs';

/** A registered producer as the grants see it: its name, and whether it may backfill. */
export const producerGrant = (p: RegisteredProducer): ProducerGrant => ({
  name: p.name,
  backfill: p.backfill,
});

/** What `applyKafkaGrants` did. */
export interface KafkaGrantsApplied {
  readonly topicsCreated: readonly string[];
  readonly aclCount: number;
  readonly acls: AclsApplied;
}

/**
 * The one way the CLI puts the system's topics and grants on the broker (`ranking setup` and
 * `ranking producer add|remove`, ADR 39): the contract's topics and every producer's, then the
 * whole list of grants, the stale ones (a removed producer's, a retired principal's) taken away.
 * Declarative: the same registry gives the same broker, whichever command ran last.
 */
export async function applyKafkaGrants(
  admin: Admin,
  prefix: string,
  producers: readonly ProducerGrant[],
): Promise<KafkaGrantsApplied> {
  const topicsCreated = await ensureTopics(admin, [
    ...topicLayout(prefix),
    ...producers.flatMap((p) => producerTopicLayout(p.name, prefix)),
  ]);
  const desired = rankingAcls(prefix, producers);
  const acls = await ensureAcls(admin, desired, prefix);
  return { topicsCreated, aclCount: desired.length, acls };
}
