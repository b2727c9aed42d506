import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import type { Producer } from '@ranking/contracts';
import {
  CheckpointedConsumer,
  combinedStatus,
  type ConsumerStatus,
  errorMessage,
  intakeGroup,
  producerTopicNames,
  topicNames,
} from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import { ProducerRepository, sqlOf } from '@ranking/persistence';
import { GameResultAdmission, type LadderConfig } from '@ranking/rating';
import type { Kafka, Producer as KafkaProducer } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { intakeBatchHandler } from './intake-batch-handler.js';
import { DATA_SOURCE, ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

interface Running {
  readonly consumer: CheckpointedConsumer<void>;
  /** The producer as last read: the handler judges each batch by its ladders then. */
  current: Producer;
}

/**
 * The intake, one consumer a producer (ADR 39): each producer's topic is read through the shared
 * consumer protocol in a group of its own, so the topic a message came on says who sent it
 * (Kafka tells a consumer nothing of a record's producer), and one producer's flood or stuck
 * partition holds up no other. The producers are read from the registry every
 * INTAKE_PRODUCERS_REFRESH_MS: a new one is consumed, a changed one judged by its new ladders
 * from its next batch, a removed one left where it is (its topic keeps what it had; a producer
 * added again goes on from its committed offsets). While the registry cannot be read, the
 * producers known go on.
 */
@Injectable()
export class ProducerIntakes implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ProducerIntakes.name);
  private readonly sender: KafkaProducer;
  private readonly admission: GameResultAdmission;
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | null = null;
  private reconciling: Promise<void> | null = null;
  private stopping = false;

  constructor(
    @Inject(ENVIRONMENT) private readonly env: Environment,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(LADDERS) ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(DATA_SOURCE) private readonly db: DataSource,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {
    // Idempotent, one request in flight: a retried send neither doubles nor reorders a ladder's events.
    this.sender = kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    this.admission = new GameResultAdmission(ladders);
  }

  status(): ConsumerStatus {
    const statuses = new Map<string, ConsumerStatus>();
    for (const [name, r] of this.running) statuses.set(name, r.consumer.status());
    return combinedStatus(statuses, Date.now());
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.sender.connect();
    await this.reconcile();
    this.timer = setInterval(() => void this.reconcile(), this.env.INTAKE_PRODUCERS_REFRESH_MS);
  }

  /** Before the process exits: each batch under way is sent and committed, nothing new is fetched. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.reconciling;
    await Promise.all([...this.running.values()].map((r) => r.consumer.stop()));
    this.running.clear();
    await this.sender.disconnect();
  }

  /** One reading of the registry at a time; a tick that finds one under way skips. */
  private reconcile(): Promise<void> {
    if (this.reconciling || this.stopping) return this.reconciling ?? Promise.resolve();
    this.reconciling = this.readRegistry().finally(() => (this.reconciling = null));
    return this.reconciling;
  }

  private async readRegistry(): Promise<void> {
    let registered: Producer[];
    try {
      registered = await new ProducerRepository(sqlOf(this.db.manager)).list();
    } catch (error) {
      this.logger.warn(
        `could not read the producers (the ${this.running.size} known go on): ${errorMessage(error)}`,
      );
      return;
    }
    const names = new Set(registered.map((p) => p.name));
    for (const [name, r] of this.running)
      if (!names.has(name)) {
        this.running.delete(name);
        await r.consumer.stop();
        this.logger.log(`producer ${name} removed: its topic is no longer consumed`);
      }
    for (const producer of registered) {
      if (this.stopping) return;
      const known = this.running.get(producer.name);
      if (known) {
        known.current = { name: producer.name, ladders: producer.ladders };
        continue;
      }
      await this.consume({ name: producer.name, ladders: producer.ladders });
    }
  }

  private async consume(producer: Producer): Promise<void> {
    const prefix = this.env.KAFKA_TOPIC_PREFIX;
    const topics = producerTopicNames(producer.name, prefix);
    const entry: { current: Producer } = { current: producer };
    const consumer = new CheckpointedConsumer<void>(this.kafka, {
      topic: topics.intake,
      groupId: intakeGroup(producer.name, prefix),
      logger: new Logger(`${ProducerIntakes.name}:${producer.name}`),
      sessionTimeoutMs: this.env.KAFKA_SESSION_TIMEOUT_MS,
      handler: intakeBatchHandler(
        this.sender,
        this.admission,
        {
          ladderEvents: topicNames(prefix).ladderEvents,
          rejections: topics.rejections,
          deadLetter: topicNames(prefix).deadLetter,
        },
        () => entry.current,
      ),
      observer: this.metrics.consumerObserver(topics.intake),
    });
    const running: Running = Object.assign(entry, { consumer });
    this.running.set(producer.name, running);
    try {
      await consumer.start();
      this.logger.log(`consuming producer ${producer.name} (${producer.ladders.join(', ')})`);
    } catch (error) {
      // Tried again at the next reading (its topic or grant may not be there yet).
      this.running.delete(producer.name);
      await consumer.stop().catch(() => undefined);
      this.logger.warn(`could not consume producer ${producer.name}: ${errorMessage(error)}`);
    }
  }
}
