import { loadEnvironment, loadLadders, readLaddersFile } from '@ranking/config';
import {
  DuelCollector,
  gameEventOf,
  integrityReport,
  WIN_TRADING_DEFAULTS,
} from '@ranking/integrity';
import { createDataSource, GameEventReader } from '@ranking/persistence';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { ndjsonLines } from '../ndjson-lines.js';
import { writeChunks } from '../output-file.js';

interface IntegrityFlags {
  events?: string;
  fromStore?: boolean;
  ladder?: string;
  ladders?: string;
  out: string;
  minGames?: number;
  maxExpectedHonest?: number;
}

/**
 * `ranking integrity`: the pairs of players whose results against each other are not what
 * their strengths say, per ladder of two-player games, strongest evidence first, each with the
 * command for its annulment's dry run (libs/integrity, ADR 35). From a file of events (as
 * `replay` reads it) or from the event store.
 */
@Command({
  name: 'integrity',
  description:
    'find win-trading: pairs whose results against each other are not what their strengths say (--events FILE or --from-store [--ladder X]) --out REPORT.json',
})
export class IntegrityCommand extends CommandRunner {
  async run(_args: string[], flags: IntegrityFlags): Promise<void> {
    if ((flags.events === undefined) === (flags.fromStore !== true))
      throw new Error('integrity needs one of --events FILE.ndjson and --from-store');
    if (flags.ladder !== undefined && !flags.fromStore)
      throw new Error('--ladder: only with --from-store (a file is read whole)');
    const log = new CommandLog('integrity');
    const collector = new DuelCollector();
    let read = 0;
    if (flags.events !== undefined) {
      const ladders = flags.ladders
        ? readLaddersFile(flags.ladders, `--ladders ${flags.ladders}`)
        : loadLadders(loadEnvironment());
      for await (const line of ndjsonLines(flags.events)) {
        read++;
        const event = gameEventOf(line.toString('utf8'), (id) => ladders.has(id));
        if (event) collector.add(event);
      }
    } else {
      const env = loadEnvironment();
      const ladders = loadLadders(env);
      if (flags.ladder !== undefined && !ladders.has(flags.ladder))
        throw new Error(
          `--ladder ${flags.ladder}: no such ladder; known: ${[...ladders.keys()].join(', ')}`,
        );
      const db = createDataSource(env.DATABASE_URL, 'ranking-integrity');
      await db.initialize();
      try {
        const reader = new GameEventReader({ query: (text, params) => db.query(text, params) });
        for await (const { payload } of reader.payloads(flags.ladder ?? null)) {
          read++;
          const event = gameEventOf(payload, (id) => ladders.has(id));
          if (event) collector.add(event);
        }
      } finally {
        await db.destroy();
      }
    }
    const report = integrityReport(collector.byLadder(), {
      ...WIN_TRADING_DEFAULTS,
      ...(flags.minGames !== undefined ? { minGames: flags.minGames } : {}),
      ...(flags.maxExpectedHonest !== undefined
        ? { maxExpectedHonest: flags.maxExpectedHonest }
        : {}),
    });
    await writeChunks(flags.out, [`${JSON.stringify(report, null, 2)}\n`]);
    const suspects = Object.values(report.ladders).reduce((n, l) => n + l.suspects.length, 0);
    log.info(`${read} events read, ${suspects} suspect pairs`, { read, suspects, out: flags.out });
  }

  @Option({
    flags: '--events <file>',
    description: 'an NDJSON file of events (as `replay` reads it)',
  })
  parseEvents(value: string): string {
    return value;
  }

  @Option({ flags: '--from-store', description: 'read the event store (DATABASE_URL) instead' })
  parseFromStore(): boolean {
    return true;
  }

  @Option({ flags: '--ladder <id>', description: 'with --from-store: this ladder only' })
  parseLadder(value: string): string {
    return value;
  }

  @Option({ flags: '--ladders <file>', description: 'a ladders file (as `replay` takes it)' })
  parseLadders(value: string): string {
    return value;
  }

  @Option({ flags: '--out <file>', description: 'where to write the report', required: true })
  parseOut(value: string): string {
    return value;
  }

  @Option({
    flags: '--min-games <n>',
    description: `games of a pair from its suspicious run's start (default ${WIN_TRADING_DEFAULTS.minGames})`,
  })
  parseMinGames(value: string): number {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 2)
      throw new Error(`--min-games ${value}: must be a whole number >= 2`);
    return n;
  }

  @Option({
    flags: '--max-expected-honest <n>',
    description: `flag a pair when fewer than this many honest pairs of its ladder are expected to look as extreme (default ${WIN_TRADING_DEFAULTS.maxExpectedHonest})`,
  })
  parseMaxExpectedHonest(value: string): number {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new Error(`--max-expected-honest ${value}: must be a number > 0`);
    return n;
  }
}
