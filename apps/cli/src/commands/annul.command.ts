import { randomUUID } from 'node:crypto';
import { loadEnvironment, loadLadders } from '@ranking/config';
import { type PlayerAnnulled, validateEvent } from '@ranking/contracts';
import { createDataSource, PgLadderStore, sqlOf } from '@ranking/persistence';
import {
  type AnnulmentPreview,
  annulmentPreview,
  type LadderConfig,
  PeriodCalendar,
} from '@ranking/rating';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { publishLadderEvent } from '../ladder-event-publisher.js';
import { withOffThreadPayloads } from '../off-thread-payloads.js';
import { ProgressLadderStore } from '../store-progress.js';

interface AnnulFlags {
  ladder?: string;
  player?: string;
  since?: string;
  note?: string;
  dryRun?: boolean;
}

/**
 * `ranking annul`: publishes a `player.annulled` event (a fair-play annulment, RULES.md
 * "Annulment"); with `--dry-run` it publishes nothing and prints what the annulment would change,
 * folding the ladder's stored log as it is and with the annulment at its end.
 */
@Command({
  name: 'annul',
  description:
    "publish a player.annulled event: the player's games since --since are re-folded as worth nothing; --dry-run prints what it would change instead",
})
export class AnnulCommand extends CommandRunner {
  async run(_args: string[], flags: AnnulFlags): Promise<void> {
    const { ladder: ladderId, player, since, note } = flags;
    if (!ladderId || !player || !since || !note)
      throw new Error('annul needs --ladder ID --player ID --since ISO --note TEXT [--dry-run]');
    const env = loadEnvironment();
    const ladder = loadLadders(env).get(ladderId);
    if (!ladder) throw new Error(`--ladder ${ladderId}: no such ladder`);
    const checked = validateEvent({
      id: `annulment:${ladder.id}:${randomUUID()}`,
      type: 'player.annulled',
      ladder: ladder.id,
      player,
      since,
      annulledAt: new PeriodCalendar(ladder.timezone).iso(Date.now()),
      note,
    });
    if (!checked.ok)
      throw new Error(
        `refusing to publish an invalid player.annulled: ${checked.rejection.detail}`,
      );
    const event = checked.event as PlayerAnnulled;

    if (flags.dryRun) {
      const preview = await previewAnnulment(env.DATABASE_URL, ladder, event);
      process.stdout.write(`${JSON.stringify(preview, null, 2)}\n`);
      return;
    }
    const sent = await publishLadderEvent(env, event, 'ranking-annul');
    new CommandLog('annul').info(
      `published player.annulled of ${ladder.id}/${player} since ${since} to ${sent.topic} (partition ${sent.partition}, offset ${sent.offset})`,
      { ladder: ladder.id, player, since, eventId: event.id, ...sent },
    );
    // The result, for scripts: the event id alone on stdout.
    process.stdout.write(`${event.id}\n`);
  }

  @Option({ flags: '--ladder <id>', description: 'the ladder', required: true })
  parseLadder(value: string): string {
    return value;
  }

  @Option({
    flags: '--player <id>',
    description: 'the player whose games are annulled',
    required: true,
  })
  parsePlayer(value: string): string {
    return value;
  }

  @Option({
    flags: '--since <iso>',
    description: 'RFC 3339 instant: games that finished at or after it are covered',
    required: true,
  })
  parseSince(value: string): string {
    return value;
  }

  @Option({ flags: '--note <text>', description: 'why: kept with the event', required: true })
  parseNote(value: string): string {
    return value;
  }

  @Option({
    flags: '--dry-run',
    description: 'publish nothing; print what the annulment would change (needs DATABASE_URL)',
  })
  parseDryRun(): boolean {
    return true;
  }
}

/**
 * The core's `annulmentPreview` on the event store, in one repeatable-read transaction, the
 * stored payloads parsed on a worker thread.
 */
export async function previewAnnulment(
  databaseUrl: string,
  ladder: LadderConfig,
  event: PlayerAnnulled,
): Promise<AnnulmentPreview> {
  const db = createDataSource(databaseUrl, 'ranking-annul');
  await db.initialize();
  try {
    const preview = await db.transaction('REPEATABLE READ', (manager) =>
      withOffThreadPayloads((parser) =>
        annulmentPreview(
          new ProgressLadderStore(
            new PgLadderStore(sqlOf(manager), new Map([[ladder.id, ladder]]), parser),
            'annul',
          ),
          ladder,
          event,
        ),
      ),
    );
    if (preview.rejected > 0)
      new CommandLog('annul').warn(
        `warning: the folds rejected ${preview.rejected} events (ladder configuration changed?)`,
        { ladder: ladder.id, rejected: preview.rejected },
      );
    return preview;
  } finally {
    await db.destroy();
  }
}
