import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { CheckpointedConsumer, consumerGroups, topicNames } from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import { GameResultAdmission, type LadderConfig } from '@ranking/rating';
import type { Kafka, Producer } from 'kafkajs';
import { intakeBatchHandler } from './intake-batch-handler.js';
import { ENVIRONMENT, KAFKA, LADDERS } from './tokens.js';

/**
 * Reads the game servers' topic through the shared consumer protocol, with Kafka's committed
 * offsets as checkpoints: a batch's admitted events and rejections are acknowledged by the
 * broker before its offsets are committed, so a crash can only send some of them again (the
 * fold ignores a repeated id), never lose one.
 */
@Injectable()
export class IntakeConsumer
  extends CheckpointedConsumer<void>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly producer: Producer;

  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LADDERS) ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
  ) {
    const topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    // Idempotent, one request in flight: a retried send neither doubles nor reorders a ladder's events.
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    super(kafka, {
      topic: topics.gameResults,
      groupId: consumerGroups(env.KAFKA_TOPIC_PREFIX).intake,
      logger: new Logger(IntakeConsumer.name),
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
      handler: intakeBatchHandler(producer, new GameResultAdmission(ladders), topics),
      observer: metrics.consumerObserver(topics.gameResults),
    });
    this.producer = producer;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.producer.connect();
    await this.start();
  }

  /** Before the process exits: the batch under way is sent and committed, nothing new is fetched. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
    await this.producer.disconnect();
  }
}
