import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { validateEvent } from '@ranking/contracts';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { PeriodCalendar } from '@ranking/rating';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { publishLadderEvent } from '../ladder-event-publisher.js';

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

    const sent = await publishLadderEvent(env, event, 'ranking-correct');
    new CommandLog('correct').info(
      `published game.corrected of ${ladder.id}/${game} to ${sent.topic} (partition ${sent.partition}, offset ${sent.offset})`,
      { ladder: ladder.id, game, eventId: event.id, ...sent },
    );
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
