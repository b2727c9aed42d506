import { generateEvents, trueStrengths } from '@ranking/generator';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { writeChunks } from '../output-file.js';

interface GenerateFlags {
  seed: number;
  events: number;
  out: string;
  days?: number;
  start?: string;
  closes?: boolean;
  annulmentShare?: number;
  strengthSpread?: number;
  truth?: string;
}

function* lines(flags: GenerateFlags): Generator<string> {
  let batch = '';
  let n = 0;
  for (const line of generateEvents(flags)) {
    batch += `${line}\n`;
    if (++n % 1000 === 0) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
}

function* truthLines(flags: GenerateFlags): Generator<string> {
  const truth = trueStrengths(flags);
  const ladders = Object.keys(truth);
  for (const [i, ladder] of ladders.entries())
    yield `${i === 0 ? '{' : ','}\n${JSON.stringify(ladder)}:${JSON.stringify(truth[ladder])}`;
  yield ladders.length === 0 ? '{}\n' : '\n}\n';
}

/** `ranking generate`: a deterministic, realistic event stream for every built-in ladder. */
@Command({
  name: 'generate',
  description: 'write a realistic, deterministic NDJSON stream of ladder events',
})
export class GenerateCommand extends CommandRunner {
  async run(_args: string[], flags: GenerateFlags): Promise<void> {
    if (flags.seed === undefined || flags.events === undefined || !flags.out) {
      throw new Error('generate needs --seed N --events M --out FILE.ndjson');
    }
    await writeChunks(flags.out, lines(flags));
    // One ladder a line: {"ladder": {"player": strength, …}, …}.
    if (flags.truth) await writeChunks(flags.truth, truthLines(flags));
    new CommandLog('generate').info(
      `generated ${flags.events} events (seed ${flags.seed}) -> ${flags.out}` +
        (flags.truth ? `, true strengths -> ${flags.truth}` : ''),
      {
        events: flags.events,
        seed: flags.seed,
        out: flags.out,
        ...(flags.strengthSpread === undefined ? {} : { strengthSpread: flags.strengthSpread }),
        ...(flags.truth ? { truth: flags.truth } : {}),
      },
    );
  }

  @Option({
    flags: '--seed <n>',
    description: 'seed: the same seed gives the same file',
    required: true,
  })
  parseSeed(value: string): number {
    return wholeNumber('--seed', value, 0);
  }

  @Option({ flags: '--events <m>', description: 'number of lines to write', required: true })
  parseEvents(value: string): number {
    return wholeNumber('--events', value, 1);
  }

  @Option({ flags: '--out <file>', description: 'where to write the NDJSON', required: true })
  parseOut(value: string): string {
    return value;
  }

  @Option({ flags: '--days <d>', description: 'days the stream spans (default 45)' })
  parseDays(value: string): number {
    return wholeNumber('--days', value, 1);
  }

  @Option({
    flags: '--start <iso>',
    description: 'first instant (default 2026-11-01T00:00:00+08:00)',
  })
  parseStart(value: string): string {
    if (Number.isNaN(Date.parse(value)))
      throw new Error(`--start ${value}: must be an RFC 3339 instant`);
    return value;
  }

  @Option({
    flags: '--closes',
    description: 'include period.closed events, as the maintenance service would publish',
  })
  parseCloses(): boolean {
    return true;
  }

  @Option({
    flags: '--annulment-share <x>',
    description: 'share of player.annulled events, 0 to 1 (default 0: none)',
  })
  parseAnnulmentShare(value: string): number {
    const share = Number(value);
    if (value.trim() === '' || !(share >= 0 && share <= 1))
      throw new Error(`--annulment-share ${value}: must be a number from 0 to 1`);
    return share;
  }

  @Option({
    flags: '--strength-spread <x>',
    description:
      'give each player a true strength (Elo points, normal with this standard deviation, e.g. 200) and draw results from it; default 0: coin flips, the file as before',
  })
  parseStrengthSpread(value: string): number {
    const spread = Number(value);
    if (value.trim() === '' || !(spread >= 0 && Number.isFinite(spread)))
      throw new Error(`--strength-spread ${value}: must be a number >= 0 (Elo points)`);
    return spread;
  }

  @Option({
    flags: '--truth <file>',
    description:
      'also write each player\'s true strength as JSON, {"ladder": {"player": strength}} (all 0 without --strength-spread)',
  })
  parseTruth(value: string): string {
    return value;
  }
}

function wholeNumber(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${flag} ${value}: must be a whole number >= ${min}`);
  return n;
}
