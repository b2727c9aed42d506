import { loadEnvironment, loadLadders, readLaddersFile } from '@ranking/config';
import { ReplayEngine } from '@ranking/rating';
import { Command, CommandRunner, Option } from 'nest-commander';
import { annulledLadders } from '../annulled-ladders.js';
import { CommandLog } from '../command-log.js';
import { instantFlag } from '../instant-flag.js';
import { fileSize } from '../ndjson-lines.js';
import { writeChunks } from '../output-file.js';
import { progressBar } from '../progress.js';
import { replayFile, replayFileInline } from '../replay-file.js';

interface ReplayFlags {
  events: string;
  out: string;
  simulate?: boolean;
  until?: number;
  singleThread?: boolean;
  ladders?: string;
  skill?: boolean;
}

/** `ranking replay`: folds an NDJSON file of events offline, exactly as CONTRACT.md says. */
@Command({
  name: 'replay',
  description:
    'fold a file of events offline (no Kafka, PostgreSQL or Redis) into ladder standings',
})
export class ReplayCommand extends CommandRunner {
  async run(_args: string[], flags: ReplayFlags): Promise<void> {
    if (!flags.events || !flags.out)
      throw new Error('replay needs --events FILE.ndjson and --out FILE.json');
    const env = loadEnvironment();
    // --ladders stands for RANKING_LADDERS_FILE in this run: built-ins plus its entries.
    const ladders = flags.ladders
      ? readLaddersFile(flags.ladders, `--ladders ${flags.ladders}`)
      : loadLadders(env);
    // Only ladders that will see an annulment keep their log (memory: see ADR 16).
    const keepLogs = await annulledLadders(flags.events);
    const engine = new ReplayEngine(ladders, {
      simulate: flags.simulate === true,
      keepLogs,
      skill: flags.skill === true,
    });
    const bar = progressBar(await fileSize(flags.events), 'bytes', 'replay');
    const started = process.hrtime.bigint();
    const onBytes = (bytes: number) => bar.update(bytes);
    const lines = flags.singleThread
      ? await replayFileInline(engine, flags.events, onBytes)
      : await replayFile(engine, flags.events, onBytes);
    engine.finish(flags.until ?? null);
    bar.stop();
    await writeChunks(flags.out, engine.render());
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const linesPerSecond = Math.round(lines / seconds);
    new CommandLog('replay').info(
      `replayed ${lines} lines in ${seconds.toFixed(2)} s (${linesPerSecond} lines/s): ` +
        `${engine.rejected.length} rejected, ${engine.voided.length} void -> ${flags.out}`,
      {
        eventsFile: flags.events,
        out: flags.out,
        lines,
        seconds: Number(seconds.toFixed(3)),
        linesPerSecond,
        rejected: engine.rejected.length,
        void: engine.voided.length,
      },
    );
  }

  @Option({
    flags: '--events <file>',
    description: 'NDJSON file of events, one per line',
    required: true,
  })
  parseEvents(value: string): string {
    return value;
  }

  @Option({
    flags: '--out <file>',
    description: 'where to write the standings JSON',
    required: true,
  })
  parseOut(value: string): string {
    return value;
  }

  @Option({
    flags: '--simulate',
    description: 'also play the maintenance service (period closes, disconnect penalties)',
  })
  parseSimulate(): boolean {
    return true;
  }

  @Option({
    flags: '--single-thread',
    description: 'parse on the thread that folds, without a worker (slower: for comparison)',
  })
  parseSingleThread(): boolean {
    return true;
  }

  @Option({
    flags: '--skill',
    description:
      'also estimate each player\'s skill (Weng-Lin, openskill) beside the official rating: "skill": {"mu", "sigma"} per player',
  })
  parseSkill(): boolean {
    return true;
  }

  @Option({
    flags: '--ladders <file>',
    description:
      'JSON array of ladders to add, or to replace built-in ones with the same id (with their params); instead of RANKING_LADDERS_FILE',
  })
  parseLadders(value: string): string {
    return value;
  }

  @Option({
    flags: '--until <iso>',
    description: 'with --simulate: close periods up to this instant at the end',
  })
  parseUntil(value: string): number {
    return instantFlag('--until', value);
  }
}
