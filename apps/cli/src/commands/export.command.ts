import { loadEnvironment, loadLadders } from '@ranking/config';
import { createDataSource, exportLog, exportStandings, type Sql } from '@ranking/persistence';
import { Command, CommandRunner, Option } from 'nest-commander';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { rename } from 'node:fs/promises';
import { CommandLog } from '../command-log.js';
import { instantFlag } from '../instant-flag.js';
import { writeChunks } from '../output-file.js';

interface ExportFlags {
  ladder?: string;
  log?: string;
  standings?: string;
  /** Epoch ms of --until. */
  until?: number;
}

/**
 * `ranking export`: the event store as NDJSON (log order), or its prefix recorded by an instant
 * (`--until`), and/or the live standings (contract format).
 */
@Command({
  name: 'export',
  description: 'export the event store (--log) and/or the live standings (--standings)',
})
export class ExportCommand extends CommandRunner {
  async run(_args: string[], flags: ExportFlags): Promise<void> {
    if (!flags.log && !flags.standings)
      throw new Error('export needs --log FILE.ndjson and/or --standings FILE.json');
    if (flags.until !== undefined && (!flags.log || flags.standings))
      throw new Error(
        '--until applies to --log only: the standings are the live state (the boards as of an instant are GET /ladders/:ladder/leaderboard?at=)',
      );
    if (flags.until !== undefined && flags.until > Date.now())
      throw new Error(`--until ${new Date(flags.until).toISOString()} is in the future`);
    const until = flags.until === undefined ? null : new Date(flags.until);
    const env = loadEnvironment();
    const ladders = loadLadders(env);
    if (flags.ladder && !ladders.has(flags.ladder))
      throw new Error(`--ladder ${flags.ladder}: no such ladder`);
    const db = createDataSource(env.DATABASE_URL, 'ranking-export');
    await db.initialize();
    try {
      // One repeatable-read snapshot, so the log and the standings describe the same moment.
      await db.transaction('REPEATABLE READ', async (manager) => {
        const sql: Sql = { query: (text, params) => manager.query(text, params) };
        if (flags.log) await writeAsync(flags.log, exportLog(sql, flags.ladder ?? null, until));
        if (flags.standings)
          await writeChunks(
            flags.standings,
            await exportStandings(sql, ladders, flags.ladder ?? null),
          );
      });
    } finally {
      await db.destroy();
    }
    new CommandLog('export').info(
      `exported${flags.log ? ` log -> ${flags.log}` : ''}${flags.standings ? ` standings -> ${flags.standings}` : ''}`,
      {
        ladder: flags.ladder,
        log: flags.log,
        standings: flags.standings,
        ...(until === null ? {} : { until: until.toISOString() }),
      },
    );
  }

  @Option({ flags: '--ladder <id>', description: 'only this ladder (default: every ladder)' })
  parseLadder(value: string): string {
    return value;
  }

  @Option({ flags: '--log <file>', description: 'write the event store as NDJSON, in log order' })
  parseLog(value: string): string {
    return value;
  }

  @Option({
    flags: '--until <instant>',
    description:
      'with --log: only the events recorded by this RFC 3339 instant (what the boards as of it were folded from)',
  })
  parseUntil(value: string): number {
    return instantFlag('--until', value);
  }

  @Option({
    flags: '--standings <file>',
    description: 'write the live standings in the replay output format',
  })
  parseStandings(value: string): string {
    return value;
  }
}

async function writeAsync(file: string, chunks: AsyncIterable<string>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temporary, { encoding: 'utf8' });
  for await (const chunk of chunks) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  await rename(temporary, file);
}
