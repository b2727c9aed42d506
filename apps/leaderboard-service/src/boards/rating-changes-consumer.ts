import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import {
  CheckpointedConsumer,
  type ConsumedMessage,
  type ConsumerStatus,
  errorMessage,
  KAFKA_COMMITTED_OFFSETS,
  kafkaFirst,
  messageFields,
  messagePlace,
  topicNames,
} from '@ranking/kafka';
import { isTransient } from '@ranking/persistence';
import type { LadderConfig } from '@ranking/rating';
import { BoardStore, isRedisAway } from '@ranking/redis';
import type { Kafka } from 'kafkajs';
import { Metrics } from '../ops/metrics.js';
import { ENVIRONMENT, KAFKA, LADDERS } from '../tokens.js';
import { BoardBuilder } from './board-builder.js';
import { hasBoard } from './board-row.js';
import { boardWork, type BoardWork, type LiveChange } from './rating-change-message.js';

/**
 * Keeps the boards in step with `ranking.rating-changes` through the shared consumer protocol.
 * The live board takes each message's rows from the message itself, in the ladder's order, and
 * keeps the seq of the last one with its rows (ADR 25); daily boards are built from the frozen
 * standings. Applying a message twice therefore changes nothing, and Kafka's committed offsets
 * serve as checkpoints. A message it cannot read is passed over with a warning and a count; a
 * failed batch (Redis or PostgreSQL away) is retried with backoff, and one that fails on its
 * own is passed over likewise.
 */
@Injectable()
export class RatingChangesConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RatingChangesConsumer.name);
  private readonly consumer: CheckpointedConsumer<void>;

  constructor(
    @Inject(ENVIRONMENT) env: Environment,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    private readonly builder: BoardBuilder,
    private readonly store: BoardStore,
    private readonly metrics: Metrics,
  ) {
    const topic = topicNames(env.KAFKA_TOPIC_PREFIX).ratingChanges;
    this.consumer = new CheckpointedConsumer<void>(kafka, {
      // From the beginning on a new group: the first run catches up with closes it never saw.
      topic,
      groupId: `${env.KAFKA_TOPIC_PREFIX}leaderboard-service`,
      logger: this.logger,
      sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
      handler: {
        transaction: (work) => work(undefined),
        checkpoints: KAFKA_COMMITTED_OFFSETS,
        apply: (_tx, messages) => this.builder.serial(() => this.apply(this.workOf(messages))),
        quarantine: (_tx, message, error) => {
          this.logger.warn(
            `passed over ${messagePlace(message)}: it fails on its own (${errorMessage(error)})`,
          );
          this.metrics.skippedMessages.inc({ reason: 'unprocessable' });
          return Promise.resolve();
        },
        // Redis's and PostgreSQL's failures by their codes, any Kafka one by the broker's (ADR 36).
        classify: kafkaFirst((error) =>
          isRedisAway(error) || isTransient(error) ? 'transient' : 'deterministic',
        ),
      },
      observer: metrics.shared.consumerObserver(topic),
    });
  }

  /** The shared protocol's view of the consumer (health). */
  status(): ConsumerStatus {
    return this.consumer.status();
  }

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  /** Before Redis and PostgreSQL close: the batch under way finishes, nothing new is fetched. */
  beforeApplicationShutdown(): Promise<void> {
    return this.consumer.stop();
  }

  /** The board work of the messages it can read; the others are passed over and counted. */
  private workOf(messages: readonly ConsumedMessage[]): BoardWork[] {
    const work: BoardWork[] = [];
    for (const message of messages) {
      const parsed = boardWork(message.value);
      if (typeof parsed === 'string') {
        this.logger.warn(`passed over ${messagePlace(message)}: ${parsed}`, messageFields(message));
        this.metrics.skippedMessages.inc({ reason: 'unreadable' });
      } else work.push(...parsed);
    }
    return work;
  }

  /**
   * The batch's work per ladder: its live board from the messages in their order (read from
   * PostgreSQL only for a summary or after a lost message), then the daily boards of its daily
   * closes, each built once.
   */
  private async apply(work: readonly BoardWork[]): Promise<void> {
    // A ladder whose rebuild from PostgreSQL is due (Redis lost its data) is left to the
    // rebuild: it runs after this batch (one queue) and covers it. The other ladders go on.
    const unready = new Set(await this.store.unready([...new Set(work.map((w) => w.ladder))]));
    const live = new Map<string, LiveChange[]>();
    const daily: { ladder: string; key: string }[] = [];
    for (const w of work) {
      if (unready.has(w.ladder)) continue;
      switch (w.kind) {
        case 'live': {
          const changes = live.get(w.ladder) ?? [];
          changes.push(w.change);
          live.set(w.ladder, changes);
          break;
        }
        case 'daily':
          daily.push({ ladder: w.ladder, key: w.key });
          break;
        default: {
          const never: never = w;
          throw new Error(`unknown board work ${JSON.stringify(never)}`);
        }
      }
    }
    for (const [id, changes] of live) {
      const ladder = this.ladders.get(id);
      if (ladder && hasBoard(ladder)) await this.builder.applyLive(ladder, changes);
    }
    for (const { ladder: id, key } of daily) {
      const ladder = this.ladders.get(id);
      if (!ladder || !hasBoard(ladder)) continue;
      if (await this.builder.dailyBuilt(ladder.id, key)) continue;
      await this.builder.buildDaily(ladder, key);
    }
  }
}
