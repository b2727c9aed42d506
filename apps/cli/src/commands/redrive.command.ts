import {
  DEAD_LETTER_HEADERS,
  producerRejectionTopic,
  producerTopic,
  UNPROCESSABLE,
} from '@ranking/contracts';
import { loadEnvironment } from '@ranking/config';
import {
  consumerGroupPrefixes,
  type DeadLetter,
  kafkaClient,
  kafkaConnection,
  letterKey,
  planRedrive,
  type Redrive,
  type RedriveOutcome,
  redriveOutcome,
  reasonRefusal,
  topicNames,
} from '@ranking/kafka';
import { createDataSource, RedriveStore, type Sql } from '@ranking/persistence';
import type { IHeaders, Kafka } from 'kafkajs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { instantFlag } from '../instant-flag.js';
import { type PlacedMessage, readWholeTopic, TopicTail, topicEnds } from '../topic-range.js';

/** The exit code when a message sent again was rejected again or is still pending. */
export const UNSETTLED_EXIT = 3;

interface RedriveFlags {
  reason?: string;
  since?: string;
  dryRun?: boolean;
  includeRedriven?: boolean;
  timeout?: number;
}

/** One message of the report: where its dead letters lie, where it goes, what became of it. */
interface ReportedRedrive {
  readonly eventId: string | null;
  readonly rejectedBy: string;
  readonly detail: string | null;
  readonly deadLetters: readonly { partition: number; offset: string; at: string }[];
  readonly to: { topic: string; key: string | null; partition?: number; offset?: string };
  readonly outcome?: RedriveOutcome;
}

/**
 * `ranking redrive`: sends dead letters again after the fault that set them aside is fixed
 * (CONTRACT.md: "every `unprocessable` is a bug to fix, after which the message can be sent
 * again"), each the way it came (ADR 31): the intake's back to its producer's topic, the rating and
 * maintenance services' to the ladder log under their ladder's key; then waits, bounded, and
 * says what became of each. `--dry-run` lists what would be sent and changes nothing.
 */
@Command({
  name: 'redrive',
  description:
    'send unprocessable dead letters again, each the way it came (intake or ladder log), and report what became of each; --dry-run lists them only',
})
export class RedriveCommand extends CommandRunner {
  async run(_args: string[], flags: RedriveFlags): Promise<void> {
    if (!flags.reason)
      throw new Error(
        `redrive needs --reason ${UNPROCESSABLE} [--since INSTANT] [--dry-run] [--include-redriven] [--timeout SECONDS]`,
      );
    const refused = reasonRefusal(flags.reason);
    if (refused) throw new Error(refused);
    const since = flags.since === undefined ? undefined : instantFlag('--since', flags.since);
    const timeoutMs = (flags.timeout ?? 60) * 1000;
    const env = loadEnvironment();
    const topics = topicNames(env.KAFKA_TOPIC_PREFIX);
    const groupPrefix = `${consumerGroupPrefixes(env.KAFKA_TOPIC_PREFIX).ops}-redrive`;
    const kafka = kafkaClient(kafkaConnection(env), 'ranking-redrive', env.LOG_LEVEL);
    const log = new CommandLog('redrive');
    const db = createDataSource(env.DATABASE_URL, 'ranking-redrive');
    await db.initialize();
    try {
      const sql: Sql = { query: (text, params) => db.query(text, params) };
      const store = new RedriveStore(sql);
      const letters = (await readWholeTopic(kafka, topics.deadLetter, groupPrefix, timeoutMs)).map(
        deadLetterOf,
      );
      const plan = planRedrive(
        letters,
        { reason: flags.reason, since, includeRedriven: flags.includeRedriven === true },
        await store.redriven(topics.deadLetter),
      );
      const { skipped } = plan;
      log.info(
        `${letters.length} dead letters on ${topics.deadLetter}: ${plan.redrives.length} messages to send again` +
          ` (left out: ${skipped.alreadyRedriven} sent before, ${skipped.beforeSince} before --since,` +
          ` ${Object.values(skipped.otherReasons).reduce((a, b) => a + b, 0)} of other reasons)`,
        {
          deadLetters: letters.length,
          redrives: plan.redrives.length,
          alreadyRedriven: skipped.alreadyRedriven,
          beforeSince: skipped.beforeSince,
          otherReasons: skipped.otherReasons,
        },
      );
      for (const l of skipped.unknownOrigin)
        log.warn(
          `dead letter ${letterKey(l)} left out: rejected by ${l.rejectedBy ?? 'nobody named'}, so where it came from is unknown`,
          { partition: l.partition, offset: l.offset, rejectedBy: l.rejectedBy },
        );
      const destination = (r: Redrive) =>
        r.route === 'intake'
          ? producerTopic(r.producer!, env.KAFKA_TOPIC_PREFIX)
          : topics.ladderEvents;
      const reported: ReportedRedrive[] = plan.redrives.map((r) => ({
        eventId: r.eventId,
        rejectedBy: r.consumer,
        detail: r.letters[0]!.detail,
        deadLetters: r.letters.map((l) => ({
          partition: l.partition,
          offset: l.offset,
          at: new Date(l.timestamp).toISOString(),
        })),
        to: { topic: destination(r), key: keyText(r.key) },
      }));
      const header = {
        reason: flags.reason,
        since: flags.since ?? null,
        dryRun: flags.dryRun === true,
        deadLetters: letters.length,
        skipped: {
          alreadyRedriven: skipped.alreadyRedriven,
          beforeSince: skipped.beforeSince,
          otherReasons: skipped.otherReasons,
          unknownOrigin: skipped.unknownOrigin.length,
        },
      };
      if (flags.dryRun || plan.redrives.length === 0) {
        process.stdout.write(`${JSON.stringify({ ...header, messages: reported }, null, 2)}\n`);
        return;
      }

      const sent = await sendAll(
        kafka,
        store,
        { ...topics, prefix: env.KAFKA_TOPIC_PREFIX },
        plan.redrives,
        destination,
        groupPrefix,
      );
      const outcomes = await sent.wait(timeoutMs);
      const summary: Record<string, number> = { applied: 0, repeat: 0, rejected: 0, pending: 0 };
      const messages = reported.map((r, i) => {
        summary[outcomes[i]!.status]!++;
        return { ...r, to: { ...r.to, ...sent.copies[i]! }, outcome: outcomes[i]! };
      });
      for (const m of messages)
        log.info(`${m.eventId ?? '(no id)'} sent to ${m.to.topic}: ${m.outcome.why}`, {
          eventId: m.eventId,
          topic: m.to.topic,
          partition: m.to.partition,
          offset: m.to.offset,
          status: m.outcome.status,
          code: m.outcome.code,
        });
      if (summary.pending! > 0)
        log.warn(
          `timed out after ${timeoutMs / 1000} s: ${summary.pending} of ${messages.length} messages sent again are still pending` +
            ' (are the services running? rerun with a longer --timeout, or check later: they stay marked as sent)',
          { pending: summary.pending, timeoutSeconds: timeoutMs / 1000 },
        );
      process.stdout.write(`${JSON.stringify({ ...header, summary, messages }, null, 2)}\n`);
      if (summary.pending! > 0 || summary.rejected! > 0) process.exitCode = UNSETTLED_EXIT;
    } finally {
      await db.destroy();
    }
  }

  @Option({
    flags: '--reason <reason>',
    description: `the dead letters' reason: only ${UNPROCESSABLE} is sent again`,
    required: true,
  })
  parseReason(value: string): string {
    return value;
  }

  @Option({
    flags: '--since <instant>',
    description: 'only dead letters set aside at or after this RFC 3339 instant',
  })
  parseSince(value: string): string {
    return value;
  }

  @Option({ flags: '--dry-run', description: 'list what would be sent; send and mark nothing' })
  parseDryRun(): boolean {
    return true;
  }

  @Option({
    flags: '--include-redriven',
    description: 'send again dead letters an earlier redrive sent too',
  })
  parseIncludeRedriven(): boolean {
    return true;
  }

  @Option({
    flags: '--timeout <seconds>',
    description: 'how long to wait for the outcomes (default 60)',
  })
  parseTimeout(value: string): number {
    const seconds = Number(value);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600)
      throw new Error(`--timeout ${value}: must be a whole number of seconds (1-3600)`);
    return seconds;
  }
}

/** A dead letter as the plan reads it. */
function deadLetterOf({ partition, message }: PlacedMessage): DeadLetter {
  return {
    partition,
    offset: message.offset,
    timestamp: Number(message.timestamp),
    key: message.key,
    value: message.value,
    reason: headerText(message.headers, DEAD_LETTER_HEADERS.reason),
    detail: headerText(message.headers, DEAD_LETTER_HEADERS.detail),
    rejectedBy: headerText(message.headers, DEAD_LETTER_HEADERS.consumer),
    producer: headerText(message.headers, DEAD_LETTER_HEADERS.producer),
  };
}

function headerText(headers: IHeaders | undefined, name: string): string | null {
  const value = headers?.[name];
  if (value === undefined) return null;
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? null : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}

const keyText = (key: Buffer | string | null): string | null =>
  key === null ? null : typeof key === 'string' ? key : key.toString('utf8');

interface Sent {
  readonly copies: { partition: number; offset: string }[];
  wait(timeoutMs: number): Promise<RedriveOutcome[]>;
}

/**
 * Sends each message in the plan's order, one acknowledged send at a time (idempotent, every
 * in-sync replica), marking its dead letters as soon as the broker has it: a crash before the
 * mark sends it again next time, which the services ignore as a repeat. The intake's
 * rejections and new dead letters are watched from before the first send.
 */
async function sendAll(
  kafka: Kafka,
  store: RedriveStore,
  topics: ReturnType<typeof topicNames> & { readonly prefix: string },
  redrives: readonly Redrive[],
  destination: (r: Redrive) => string,
  groupPrefix: string,
): Promise<Sent> {
  const ids = redrives.map((r) => r.eventId).filter((id): id is string => id !== null);
  const storedBefore = await store.stored(ids.filter(storable));
  const intakeAnswers = new Map<string, { code: string; by: string }>();
  let tail: TopicTail | undefined;
  // The rejections of each producer a message goes back to (ADR 39), and the dead letters.
  const rejectionTopics = new Set(
    redrives
      .filter((r) => r.route === 'intake')
      .map((r) => producerRejectionTopic(r.producer!, topics.prefix)),
  );
  if (rejectionTopics.size > 0) {
    const from = new Map([
      ...(await Promise.all(
        [...rejectionTopics].map(async (t) => [t, await topicEnds(kafka, t)] as const),
      )),
      [topics.deadLetter, await topicEnds(kafka, topics.deadLetter)] as const,
    ]);
    tail = new TopicTail(kafka, groupPrefix, from, ({ topic, message }) => {
      const reason = headerText(message.headers, DEAD_LETTER_HEADERS.reason);
      const by = rejectionTopics.has(topic)
        ? 'intake-service'
        : headerText(message.headers, DEAD_LETTER_HEADERS.consumer);
      if (reason !== null && by === 'intake-service' && message.value)
        intakeAnswers.set(message.value.toString('base64'), { code: reason, by });
    });
    await tail.start();
  }
  const producer = kafka.producer({
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  const copies: { partition: number; offset: string }[] = [];
  await producer.connect();
  try {
    for (const r of redrives) {
      const topic = destination(r);
      const [meta] = await producer.send({
        topic,
        acks: -1,
        messages: [{ key: r.key, value: r.value }],
      });
      const copy = { partition: meta!.partition, offset: meta!.baseOffset! };
      copies.push(copy);
      await store.mark(
        r.letters.map((l) => ({
          topic: topics.deadLetter,
          partition: l.partition,
          offset: l.offset,
          eventId: r.eventId,
          reason: l.reason ?? UNPROCESSABLE,
          rejectedBy: l.rejectedBy,
          sentTopic: topic,
          sentPartition: copy.partition,
          sentOffset: copy.offset,
        })),
      );
    }
  } catch (error) {
    await tail?.stop();
    throw error;
  } finally {
    await producer.disconnect();
  }

  const observe = async (): Promise<RedriveOutcome[]> => {
    // Checkpoints first: a transaction that moved one past a copy also stored or rejected it.
    const checkpoints = await store.checkpoints(topics.ladderEvents);
    const ladderCopies = redrives.flatMap((r, i) =>
      r.route === 'ladder-log' ? [{ topic: topics.ladderEvents, ...copies[i]! }] : [],
    );
    const rejections = await store.rejections(ladderCopies);
    const storedNow = await store.stored(ids.filter(storable));
    return redrives.map((r, i) => {
      const copy = copies[i]!;
      const id = r.eventId;
      const rejectedCode =
        r.route === 'ladder-log'
          ? rejections.get(`${r.consumer}|${copy.partition}:${copy.offset}`)
          : undefined;
      const intakeAnswer =
        r.route === 'intake' ? intakeAnswers.get(r.value?.toString('base64') ?? '') : undefined;
      return redriveOutcome({
        route: r.route,
        consumer: r.consumer,
        storedBefore: id !== null && storedBefore.has(id),
        storedNow: id !== null && storedNow.has(id),
        passed: (checkpoints.get(`${r.consumer}|${copy.partition}`) ?? 0n) > BigInt(copy.offset),
        rejection:
          intakeAnswer ??
          (rejectedCode === undefined ? undefined : { code: rejectedCode, by: r.consumer }),
      });
    });
  };

  return {
    copies,
    wait: async (ms) => {
      const deadline = Date.now() + ms;
      try {
        for (;;) {
          const outcomes = await observe();
          if (outcomes.every((o) => o.status !== 'pending') || Date.now() > deadline)
            return outcomes;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        await tail?.stop();
      }
    },
  };
}

/** An id PostgreSQL text can hold (NUL and unpaired surrogates it cannot). */
const storable = (id: string) => !/\u0000|[\ud800-\udfff]/u.test(id);
