import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Producer } from '@ranking/contracts';
import {
  intakeGroup,
  producerTopicLayout,
  producerTopicNames,
  topicLayout,
  topicNames,
} from '@ranking/kafka';
import {
  createDataSource,
  exportLog,
  exportStandings,
  ProducerRepository,
  type Sql,
} from '@ranking/persistence';
import { type LadderConfig, ReplayEngine } from '@ranking/rating';
import type { ITopicConfig, Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { testKafka, uniqueName } from './kafka.js';
import { collectText } from './collect-text.js';
import { ServiceProcess } from './service-process.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);

/**
 * A rating-service world of its own: a fresh database, topics under a unique prefix, and
 * helpers to produce a stream, run service processes, and check the result against the
 * offline replay.
 */
/** A producer of a test world, with its topics. */
export interface TestProducer extends Producer {
  readonly topic: string;
  readonly rejections: string;
}

export class RatingScenario {
  readonly prefix = `${uniqueName('t')}.`;
  readonly topics = topicNames(this.prefix);
  /** The producers this world added (their topics go with it). */
  readonly producers: TestProducer[] = [];
  readonly kafka = testKafka();
  private database!: TestDatabase;
  db!: DataSource;
  readonly sql: Sql = { query: (text, params) => this.db.query(text, params) };

  /**
   * `database`: where the world's database comes from (by default a copy of the shared server's
   * template; e.g. `createMigratedDatabase` on a private cluster).
   */
  constructor(
    private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly options: { readonly database?: () => Promise<TestDatabase> } = {},
  ) {}

  /** The world's database URL (for a CLI run against it). */
  get databaseUrl(): string {
    return this.database.url;
  }

  async setUp(): Promise<void> {
    this.database = await (this.options.database ?? createTestDatabase)();
    this.db = createDataSource(this.database.url, 'test-scenario');
    await this.db.initialize();
    await this.createTopics(topicLayout(this.prefix));
  }

  /** Creates topics and waits for their leaders (on a cluster too). */
  private async createTopics(layout: ITopicConfig[]): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: layout, waitForLeaders: true });
    } catch (error) {
      // On a cluster, kafkajs's leader check may ask a broker that has not yet heard of the new
      // topics (UNKNOWN_TOPIC_OR_PARTITION, which it does not retry): wait for the leaders here.
      if ((error as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
      await waitFor(
        async () => {
          const { topics } = await admin.fetchTopicMetadata({
            topics: layout.map((t) => t.topic),
          });
          return topics.every((t) => t.partitions.every((p) => p.leader >= 0));
        },
        { timeout: 30_000, interval: 250, what: 'the new topics to have leaders' },
      );
    } finally {
      await admin.disconnect();
    }
  }

  async tearDown(): Promise<void> {
    await this.db.destroy();
    await this.database.drop();
    const admin = this.kafka.admin();
    await admin.connect();
    await admin.deleteTopics({
      topics: [
        ...Object.values(this.topics),
        ...this.producers.flatMap((p) => [p.topic, p.rejections]),
      ],
    });
    await admin.disconnect();
  }

  /**
   * A producer (ADR 39) in this world: in its registry, with its two topics (created as the
   * broker's local super user; `ranking producer add` also makes its Kafka user and grants).
   * Of every ladder unless `ladders` says; again, it sets the producer's ladders.
   */
  async addProducer(
    name = `gs-${uniqueName('p').slice(-8).toLowerCase()}`,
    ladders: readonly string[] = [...this.ladders.keys()],
  ): Promise<TestProducer> {
    await this.createTopics(producerTopicLayout(name, this.prefix));
    await new ProducerRepository(this.sql).upsert(name, ladders);
    const topics = producerTopicNames(name, this.prefix);
    const producer = {
      name,
      ladders: [...new Set(ladders)].sort(),
      topic: topics.intake,
      rejections: topics.rejections,
    };
    const known = this.producers.findIndex((p) => p.name === name);
    if (known >= 0) this.producers.splice(known, 1, producer);
    else this.producers.push(producer);
    return producer;
  }

  /** The built rating service on this world's database and topics; `env`: extra variables. */
  service(env: Record<string, string> = {}): ServiceProcess {
    return new ServiceProcess('dist/apps/rating-service/src/main.js', {
      DATABASE_URL: this.database.url,
      KAFKA_TOPIC_PREFIX: this.prefix,
      ...env,
    });
  }

  /**
   * The built intake service on this world's topics and producers (read every 500 ms); `env`:
   * extra variables.
   */
  intake(env: Record<string, string> = {}): ServiceProcess {
    return new ServiceProcess('dist/apps/intake-service/src/main.js', {
      DATABASE_URL: this.database.url,
      KAFKA_TOPIC_PREFIX: this.prefix,
      INTAKE_PRODUCERS_REFRESH_MS: '500',
      ...env,
    });
  }

  /**
   * Publishes to a producer's intake topic as its game server does: each value with its key
   * (the ladder's, a random one, or none), in order, idempotently (see `produce`).
   */
  async publishResults(
    producer: TestProducer,
    messages: readonly { key: string | null; value: string | Buffer }[],
    kafka: Kafka = this.kafka,
  ): Promise<void> {
    const sender = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await sender.connect();
    try {
      for (let i = 0; i < messages.length; i += 500)
        await sender.send({ topic: producer.topic, messages: messages.slice(i, i + 500) });
    } finally {
      await sender.disconnect();
    }
  }

  /** The intake has committed every message of the producer's topic. */
  async intakeDrained(producer: TestProducer): Promise<boolean> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(producer.topic);
      const [committed] = await admin.fetchOffsets({
        groupId: intakeGroup(producer.name, this.prefix),
        topics: [producer.topic],
      });
      const at = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      return ends.every((e) => Number(e.high) === 0 || at.get(e.partition) === Number(e.high));
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * Produces lines onto the ladder log keyed by ladder, as the intake places them (through
   * `kafka`: another principal).
   * Idempotent: kafkajs retries a whole request after an error on one partition (e.g. a leader
   * not yet elected on a new topic), and without the broker's sequence check the partitions
   * that had succeeded would get the messages twice.
   */
  async produce(lines: readonly string[], kafka: Kafka = this.kafka): Promise<void> {
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    for (let i = 0; i < lines.length; i += 500) {
      await producer.send({
        topic: this.topics.ladderEvents,
        messages: lines
          .slice(i, i + 500)
          .map((value) => ({ key: /"ladder":"([^"]+)"/.exec(value)?.[1] ?? 'unknown', value })),
      });
    }
    await producer.disconnect();
  }

  async storedEvents(): Promise<number> {
    return Number((await this.db.query('SELECT count(*) AS n FROM event_store'))[0].n);
  }

  /** Every produced message is behind the stored checkpoints. */
  /** Annulments accepted into the store and not yet swapped in by the refold thread. */
  async pendingAnnulments(): Promise<number> {
    const [row] = await this.db.query('SELECT count(*) AS n FROM pending_annulments');
    return Number(row.n);
  }

  /** Everything consumed and applied: annulments are swapped in beside the consumer (ADR 24). */
  async drained(): Promise<boolean> {
    return (await this.consumed()) && (await this.pendingAnnulments()) === 0;
  }

  /** The consumer checkpointed the end of every partition (annulments may still be pending). */
  async consumed(): Promise<boolean> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(this.topics.ladderEvents);
      const rows: { partition: number; next_offset: string }[] = await this.db.query(
        "SELECT partition, next_offset FROM consumer_offsets WHERE consumer = 'rating-service' AND topic = $1",
        [this.topics.ladderEvents],
      );
      const stored = new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
      return ends.every((e) => Number(e.high) === 0 || stored.get(e.partition) === Number(e.high));
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * The event store holds exactly the events the offline replay accepts, once each, and the
   * live state equals both the replay of the exported log and the replay of the stream.
   */
  async expectSameAsReplay(lines: readonly string[]): Promise<void> {
    const offline = new ReplayEngine(this.ladders);
    const accepted = new Set<string>();
    for (const line of lines) {
      const result = offline.ingestLine(line);
      if (result.kind === 'accepted') accepted.add(result.event.id);
    }
    const stored: { event_id: string }[] = await this.db.query('SELECT event_id FROM event_store');
    expect(stored).toHaveLength(accepted.size);
    expect(new Set(stored.map((r) => r.event_id))).toEqual(accepted);
    const live = await this.expectLiveSameAsLog();
    expect(live.ladders).toEqual(JSON.parse([...offline.render()].join('')).ladders);
  }

  /**
   * The export's standings (what `ranking export --standings` writes) equal the offline replay's
   * byte for byte in their ladders; the rejected and void lists hold the same entries, in an
   * order of their own (live: as the partitions' transactions committed; offline: the log's).
   */
  async expectExportSameAsReplayText(lines: readonly string[]): Promise<void> {
    const offline = new ReplayEngine(this.ladders);
    for (const line of lines) offline.ingestLine(line);
    const parts = (text: string) => {
      const at = text.indexOf('\n"rejected":');
      const lists = JSON.parse(`{${text.slice(at + 1)}`) as {
        rejected: unknown[];
        void: unknown[];
      };
      const sorted = (list: unknown[]) => list.map((entry) => JSON.stringify(entry)).sort();
      return {
        ladders: text.slice(0, at),
        rejected: sorted(lists.rejected),
        void: sorted(lists.void),
      };
    };
    const exported = await collectText(await exportStandings(this.sql, this.ladders, null));
    expect(parts(exported)).toEqual(parts([...offline.render()].join('')));
  }

  /**
   * The live state equals the replay of the exported log, skill estimates included (to the
   * last bit); returns the live standings without the estimates (as `ranking replay` writes them).
   */
  async expectLiveSameAsLog(): Promise<{ ladders: unknown; void: unknown }> {
    type Standings = {
      ladders: Record<string, { players: Record<string, object> }>;
      void: unknown;
    };
    const live = JSON.parse(
      await collectText(await exportStandings(this.sql, this.ladders, null, { skill: true })),
    ) as Standings;
    const fromLog = new ReplayEngine(this.ladders, { simulate: false, skill: true });
    for (const line of (await collectText(exportLog(this.sql, null))).split('\n'))
      fromLog.ingestLine(line);
    const replayed = JSON.parse([...fromLog.render()].join('')) as Standings;
    expect(live.ladders).toEqual(replayed.ladders);
    expect(live.void).toEqual(replayed.void);
    for (const { players } of Object.values(live.ladders))
      for (const player of Object.values(players)) delete (player as { skill?: unknown }).skill;
    return live;
  }
}

/**
 * Restarts the local broker through this checkout's script (it must be the one that started it);
 * `whileDown` runs between the stop and the start.
 */
export async function restartLocalBroker({
  whileDown,
}: { whileDown?: () => Promise<void> } = {}): Promise<void> {
  await run('bash', ['deploy/kafka/kafka.sh', 'stop']);
  const status = await run('bash', ['deploy/kafka/kafka.sh', 'status']).then(
    () => 'up',
    () => 'down',
  );
  if (status === 'up')
    throw new Error(
      'the broker is still up: it was not started by this checkout (deploy/kafka/kafka.sh start)',
    );
  try {
    await whileDown?.();
  } finally {
    await run('bash', ['deploy/kafka/kafka.sh', 'start']);
  }
}
