import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { validateEvent } from '@ranking/contracts';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { kafkaClient, kafkaConnection, topicNames } from '@ranking/kafka';
import { PeriodCalendar } from '@ranking/rating';
import type { Kafka } from 'kafkajs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';

interface CorrectFlags {
  ladder?: string;
  game?: string;
  void?: boolean;
  players?: string;
  note?: string;
}

/** `ranking correct`: publishes a `game.corrected` event (an adjudication) keyed by its ladder. */
@Command({
  name: 'correct',
  description:
    'publish a game.corrected event (an adjudication) to the ladder-events topic: --void a game, or replace its --players',
})
export class CorrectCommand extends CommandRunner {
  async run(_args: string[], flags: CorrectFlags): Promise<void> {
    const { ladder: ladderId, game, note } = flags;
    if (!ladderId || !game || !note)
      throw new Error(
        'correct needs --ladder ID --game GAME_ID (--void | --players FILE.json) --note TEXT',
      );
    if ((flags.void === true) === (flags.players !== undefined))
      throw new Error('correct needs exactly one of --void or --players FILE.json');
    const env = loadEnvironment();
    const ladder = loadLadders(env).get(ladderId);
    if (!ladder) throw new Error(`--ladder ${ladderId}: no such ladder`);

    const checked = validateEvent({
      id: correctionId(ladder.id, game),
      type: 'game.corrected',
      ladder: ladder.id,
      gameId: game,
      correctedAt: new PeriodCalendar(ladder.timezone).iso(Date.now()),
      ...(flags.players === undefined
        ? { void: true }
        : { players: await readPlayers(flags.players) }),
      note,
    });
    if (!checked.ok)
      throw new Error(`refusing to publish an invalid game.corrected: ${checked.rejection.detail}`);
    const event = checked.event;

    const topic = topicNames(env.KAFKA_TOPIC_PREFIX).ladderEvents;
    const kafka = kafkaClient(kafkaConnection(env), 'ranking-correct', env.LOG_LEVEL);
    await requireTopic(kafka, topic);
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    try {
      // A retried send may land twice; the event id makes the second one a no-op.
      const [sent] = await producer.send({
        topic,
        acks: -1,
        messages: [{ key: ladder.id, value: JSON.stringify(event) }],
      });
      new CommandLog('correct').info(
        `published game.corrected of ${ladder.id}/${game} to ${topic} (partition ${sent?.partition}, offset ${sent?.baseOffset})`,
        {
          ladder: ladder.id,
          game,
          eventId: event.id,
          topic,
          partition: sent?.partition,
          offset: sent?.baseOffset,
        },
      );
    } finally {
      await producer.disconnect();
    }
    // The result, for scripts: the event id alone on stdout.
    process.stdout.write(`${event.id}\n`);
  }

  @Option({ flags: '--ladder <id>', description: 'the ladder of the game', required: true })
  parseLadder(value: string): string {
    return value;
  }

  @Option({ flags: '--game <gameId>', description: 'the game to correct', required: true })
  parseGame(value: string): string {
    return value;
  }

  @Option({ flags: '--void', description: 'the game counts for nothing' })
  parseVoid(): boolean {
    return true;
  }

  @Option({
    flags: '--players <file>',
    description: 'JSON array of the corrected players (as in game.finished, each with an id)',
  })
  parsePlayers(value: string): string {
    return value;
  }

  @Option({ flags: '--note <text>', description: 'why: kept with the event', required: true })
  parseNote(value: string): string {
    return value;
  }
}

/** Unique forever (the idempotency key); the game id is left out when it would make the id too long. */
function correctionId(ladder: string, game: string): string {
  const id = `correction:${ladder}:${game}:${randomUUID()}`;
  return id.length <= 128 ? id : `correction:${ladder}:${randomUUID()}`;
}

async function readPlayers(file: string): Promise<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`--players ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(value))
    throw new Error(`--players ${file}: must hold a JSON array of players, each with an id`);
  return value;
}

/** Fails at once on a missing topic (the producer alone would retry for about a minute). */
async function requireTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic))
      throw new Error(
        `topic ${topic} does not exist: check KAFKA_TOPIC_PREFIX, or create it with \`ranking setup\``,
      );
  } finally {
    await admin.disconnect();
  }
}
