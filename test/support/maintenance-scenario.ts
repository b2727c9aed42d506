import type { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { type Environment, loadEnvironment } from '@ranking/config';
import type { LadderEvent } from '@ranking/contracts';
import type { LadderConfig } from '@ranking/rating';
import type { Consumer } from 'kafkajs';
import { TEST_ENV } from './environment.js';
import { uniqueName } from './kafka.js';
import { RatingScenario } from './rating-scenario.js';
import { ServiceProcess } from './service-process.js';

/**
 * A maintenance-service world: the rating scenario's database and topics, in-process
 * maintenance instances (so a test can hand them its own clock) or the built service as a
 * process, and a reader of everything published on the ladder-events topic.
 */
export class MaintenanceScenario {
  readonly world: RatingScenario;
  private reader: Consumer | null = null;
  /** Every message on the ladder-events topic, in each partition's order. */
  readonly published: LadderEvent[] = [];

  constructor(ladders: ReadonlyMap<string, LadderConfig>) {
    this.world = new RatingScenario(ladders);
  }

  get databaseUrl(): string {
    return (this.world.db.options as { url: string }).url;
  }

  async setUp(): Promise<void> {
    await this.world.setUp();
    const reader = this.world.kafka.consumer({
      groupId: uniqueName('reader'),
      maxWaitTimeInMs: 100,
    });
    await reader.connect();
    await reader.subscribe({ topic: this.world.topics.ladderEvents, fromBeginning: true });
    await reader.run({
      eachMessage: ({ message }) => {
        try {
          this.published.push(JSON.parse(message.value?.toString() ?? 'null') as LadderEvent);
        } catch {
          // bad lines are the rating service's concern
        }
        return Promise.resolve();
      },
    });
    this.reader = reader;
  }

  async tearDown(): Promise<void> {
    await this.reader?.disconnect();
    await this.world.tearDown();
  }

  environment(extra: Record<string, string> = {}): Environment {
    return loadEnvironment({
      KAFKA_BROKERS: TEST_ENV.kafkaBrokers,
      DATABASE_URL: this.databaseUrl,
      KAFKA_TOPIC_PREFIX: this.world.prefix,
      MAINTENANCE_TICK_MS: '25',
      ...extra,
    });
  }

  /** A maintenance instance in this process, built from the module the test hands in. */
  async startInProcess(
    module: (env: Environment) => DynamicModule,
    extra: Record<string, string> = {},
  ): Promise<INestApplication> {
    const app = await NestFactory.create(module(this.environment(extra)), new FastifyAdapter(), {
      logger: ['error', 'warn'],
      abortOnError: false,
    });
    await app.listen(0, '127.0.0.1');
    return app;
  }

  /** The built service as a process (SIGKILL-able), with the system clock. */
  process(extra: Record<string, string> = {}): ServiceProcess {
    return new ServiceProcess('dist/apps/maintenance-service/src/main.js', {
      DATABASE_URL: this.databaseUrl,
      KAFKA_TOPIC_PREFIX: this.world.prefix,
      ...extra,
    });
  }

  /** Ids published so far of one event type, in arrival order (repeats kept). */
  publishedIds(type: LadderEvent['type'], ladder?: string): string[] {
    return this.published
      .filter((e) => e.type === type && (ladder === undefined || e.ladder === ladder))
      .map((e) => e.id);
  }

  async outboxEmpty(): Promise<boolean> {
    const [row] = await this.world.db.query('SELECT count(*) AS n FROM maintenance_outbox');
    return Number(row.n) === 0;
  }

  /** The maintenance consumer's checkpoints cover every message on the topic. */
  async maintenanceDrained(): Promise<boolean> {
    const admin = this.world.kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(this.world.topics.ladderEvents);
      const rows: { partition: number; next_offset: string }[] = await this.world.db.query(
        "SELECT partition, next_offset FROM consumer_offsets WHERE consumer = 'maintenance-service' AND topic = $1",
        [this.world.topics.ladderEvents],
      );
      const stored = new Map(rows.map((r) => [r.partition, Number(r.next_offset)]));
      return ends.every((e) => Number(e.high) === 0 || stored.get(e.partition) === Number(e.high));
    } finally {
      await admin.disconnect();
    }
  }

  async counters(
    ladder: string,
  ): Promise<Map<string, { count: number; streak: number; penalties: number }>> {
    const rows: { player: string; count: number; streak: number; penalties: number }[] =
      await this.world.db.query(
        'SELECT player, count, streak, penalties FROM disconnect_counters WHERE ladder = $1',
        [ladder],
      );
    return new Map(
      rows.map((r) => [r.player, { count: r.count, streak: r.streak, penalties: r.penalties }]),
    );
  }
}
