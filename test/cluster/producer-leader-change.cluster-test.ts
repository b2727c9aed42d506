import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TEST_ENV, uniqueName, waitFor } from '@ranking/testing';
import { Kafka, logLevel } from 'kafkajs';

/**
 * kafkajs's send when a partition leader dies under it (ADR 37). Upstream 2.2.4 remembers a
 * send's answers per broker and, on a retry, skips every broker that answered: the partitions of
 * the dead leader, once moved to a broker that had answered for its own partitions, were never
 * sent again, and the send resolved without them. The intake, the outbox relays and every game
 * server on kafkajs send that way. Runs on the three-node cluster (deploy/test-brokers.sh).
 */
const run = promisify(execFile);
const cluster = (...args: string[]) =>
  run('bash', ['deploy/kafka/kafka.sh', '--brokers', '3', ...args]);
const clusterDir = process.env.KAFKA_CLUSTER_DIR ?? '.kafka-cluster';
const nodePid = (node: number) =>
  Number(readFileSync(join(clusterDir, `node-${node}`, 'kafka.pid'), 'utf8').trim());

const PARTITIONS = 9;
const kafka = new Kafka({
  clientId: uniqueName('leader-change'),
  brokers: TEST_ENV.kafkaBrokers.split(','),
  logLevel: logLevel.NOTHING,
  // Patient enough to outlast the dead leader until the controller fences it and elects another.
  retry: { initialRetryTime: 300, maxRetryTime: 3000, retries: 40 },
});

/** How many times the scenario is set up at most (see the test). */
const ATTEMPTS = 3;

describe('a kafkajs send across a leader change (three brokers)', () => {
  let stopped: number | null = null;
  let killed: number | null = null;
  const restore = async () => {
    if (stopped !== null) process.kill(stopped, 'SIGCONT');
    if (killed !== null) await cluster('start-node', String(killed));
    stopped = killed = null;
  };
  afterEach(restore, 180_000);

  /**
   * One run of the scenario on a new topic: the victim stops (SIGSTOP) with the send in flight,
   * the other leaders take their messages, then the victim dies. Answers whether the other
   * leaders were seen to take theirs before the kill (the order the upstream bug needs), after
   * checking that the send resolved only once every message was on its partition.
   */
  const scenario = async (): Promise<boolean> => {
    const topic = uniqueName('leader-change');
    const admin = kafka.admin();
    await admin.connect();
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      // kafkajs asks for the new topic's metadata at once, and a broker of a new cluster may
      // not know it yet (UNKNOWN_TOPIC_OR_PARTITION): the wait below asks until every one does.
      await admin
        .createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 3 }] })
        .catch((error: { type?: string }) => {
          if (error.type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
        });
      // Every broker knows the topic and every replica is in sync first, so the survivors hold everything the victim acknowledged.
      const metadata = await waitFor(
        async () => {
          const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
          const partitions = topics[0]?.partitions ?? [];
          return partitions.length === PARTITIONS && partitions.every((p) => p.isr.length === 3)
            ? partitions
            : undefined;
        },
        { timeout: 120_000, interval: 250, what: 'every replica of the new topic in sync' },
      );
      // The victim leads some partitions, and another broker leads others (it will answer).
      const leaders = new Map<number, number[]>();
      for (const p of metadata)
        leaders.set(p.leader, [...(leaders.get(p.leader) ?? []), p.partitionId]);
      expect(leaders.size).toBeGreaterThan(1);
      const victim = [...leaders.keys()][0]!;
      const victimPartitions = leaders.get(victim)!;
      const others = metadata
        .map((p) => p.partitionId)
        .filter((p) => !victimPartitions.includes(p));

      // The victim stops answering (SIGSTOP): its request hangs, the others' are answered.
      stopped = nodePid(victim);
      process.kill(stopped, 'SIGSTOP');
      const messages = metadata.map((p) => ({
        partition: p.partitionId,
        key: `k${p.partitionId}`,
        value: `m${p.partitionId}`,
      }));
      const sent = producer.send({ topic, acks: -1, timeout: 60_000, messages });
      const outcome = sent.then(
        () => 'resolved',
        (error: Error) => `rejected: ${error.message}`,
      );
      // Watched through the two live brokers only, with a new client each time (one that
      // learnt of the stopped broker may send it a request that hangs): the controller fences
      // the victim, its partitions move to the others, and the others, whose ISR no longer
      // waits for it, take their messages and answer the send.
      const liveBrokers = TEST_ENV.kafkaBrokers.split(',').filter((_, i) => i + 1 !== victim);
      const othersTookTheirs = async (): Promise<boolean> => {
        const live = new Kafka({
          clientId: uniqueName('leader-change-watch'),
          brokers: liveBrokers,
          logLevel: logLevel.NOTHING,
          requestTimeout: 2000,
          retry: { retries: 0 },
        }).admin();
        await live.connect();
        try {
          const { topics } = await live.fetchTopicMetadata({ topics: [topic] });
          if ((topics[0]?.partitions ?? []).some((p) => p.leader === victim)) return false;
          const offsets = await live.fetchTopicOffsets(topic);
          return others.every(
            (p) => Number(offsets.find((o) => o.partition === p)?.high ?? 0) === 1,
          );
        } finally {
          await live.disconnect();
        }
      };
      // With the victim frozen (not dead: its connections stay open), the two live nodes
      // sometimes serve stale metadata for minutes on this machine (NOT_LEADER,
      // UNKNOWN_TOPIC_OR_PARTITION, metadata timeouts). Then the order is not reached this time.
      const ordered = await waitFor(othersTookTheirs, {
        timeout: 45_000,
        interval: 250,
        what: 'the other leaders to take their messages',
      }).then(
        () => true,
        () => false,
      );
      // Then it dies: the connection closes, kafkajs retries, and the controller moves its
      // partitions to the brokers that had answered.
      await cluster('kill-node', String(victim));
      killed = victim;
      stopped = null;

      expect(await outcome).toBe('resolved');
      const offsets = await waitFor(
        async () => {
          const all = await admin.fetchTopicOffsets(topic);
          return all.length === PARTITIONS ? all : undefined;
        },
        { timeout: 60_000, interval: 250, what: 'the offsets of every partition' },
      );
      // Every message on its partition, once.
      expect(
        offsets
          .map((o) => ({ partition: o.partition, messages: Number(o.high) }))
          .sort((a, b) => a.partition - b.partition),
      ).toEqual(
        metadata
          .map((p) => ({ partition: p.partitionId, messages: 1 }))
          .sort((a, b) => a.partition - b.partition),
      );
      return ordered;
    } finally {
      await producer.disconnect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  };

  it('when the leader of some partitions dies after the other brokers answered, then the send resolves only once every message is on its partition', async () => {
    // Each run checks the delivery; runs repeat (the victim restarted between them) until one
    // reaches the order the upstream bug needs, at most ATTEMPTS: unpatched, that run loses the
    // dead leader's messages and fails the delivery check.
    const orders: boolean[] = [];
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const ordered = await scenario();
      orders.push(ordered);
      await restore();
      if (ordered) break;
    }
    console.log(`runs until the other leaders answered before the kill: ${JSON.stringify(orders)}`);
  }, 900_000);
});
