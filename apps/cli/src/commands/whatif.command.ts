import { loadEnvironment, loadLadderVariant, loadLadders } from '@ranking/config';
import { createDataSource, PgLadderStore, sqlOf } from '@ranking/persistence';
import {
  ChangedFromStore,
  foldFromStore,
  type LadderConfig,
  LadderFold,
  type LadderStore,
  ReplayEngine,
  renderWhatIf,
  whatIfReport,
  type WhatIfReport,
} from '@ranking/rating';
import { Command, CommandRunner, Option } from 'nest-commander';
import { CommandLog } from '../command-log.js';
import { instantFlag } from '../instant-flag.js';
import { fileSize } from '../ndjson-lines.js';
import { writeChunks } from '../output-file.js';
import { progressBar } from '../progress.js';
import { replayFile } from '../replay-file.js';
import { withOffThreadPayloads } from '../off-thread-payloads.js';
import { ProgressLadderStore } from '../store-progress.js';
import { whatIfPage } from '../what-if-page.js';

interface WhatIfFlags {
  ladder: string;
  ladders: string;
  out: string;
  events?: string;
  fromStore?: boolean;
  changesFrom?: number;
  simulate?: boolean;
  until?: number;
  html?: boolean;
}

/** Where the log came from and how it was folded: the report's head. */
interface Folded {
  readonly source:
    | { readonly from: 'events'; readonly file: string }
    | {
        readonly from: 'store';
        /** With --changes-from: the instant, and the position where the variant takes over. */
        readonly changesFrom?: string;
        readonly position?: number;
      };
  readonly simulate: boolean;
  readonly until: string | null;
  /** Events of the ladder each fold rejected (a variant may reject what the ladder takes). */
  readonly rejected: { readonly asIs: number; readonly variant: number };
  readonly report: WhatIfReport;
}

/**
 * `ranking whatif`: one ladder folded twice from the same log, as it is and under a variant of
 * its settings, and what that changes (ADR 18). Both folds see the same events in the same
 * order, with the replay's own fold: the stored log as it is (it holds the maintenance
 * service's closes and penalties), or a file as `ranking replay` reads it.
 */
@Command({
  name: 'whatif',
  description:
    "fold one ladder twice, as it is and under a ladders file's variant, and report what " +
    'changes (ratings, ranks, titles, how many moved, Kendall tau, the top 100)',
})
export class WhatIfCommand extends CommandRunner {
  async run(_args: string[], flags: WhatIfFlags): Promise<void> {
    if ((flags.events === undefined) === (flags.fromStore !== true))
      throw new Error('whatif needs one of --events FILE.ndjson and --from-store');
    if (flags.simulate && flags.fromStore)
      throw new Error(
        "--simulate: only with --events (the stored log holds the maintenance service's closes and penalties)",
      );
    if (flags.until !== undefined && !flags.simulate)
      throw new Error('--until: only with --simulate (it closes the periods up to it at the end)');
    if (flags.changesFrom !== undefined && !flags.fromStore)
      throw new Error(
        '--changes-from: only with --from-store (it names a moment of the stored log)',
      );
    const env = loadEnvironment();
    const asIs = loadLadders(env).get(flags.ladder);
    if (!asIs) throw new Error(`--ladder ${flags.ladder}: no such ladder`);
    const variant = loadVariant(asIs, flags.ladders);
    if (flags.changesFrom !== undefined && variant.ruleSet !== asIs.ruleSet)
      throw new Error(
        `--changes-from: the variant must keep the ladder's rule set (${asIs.ruleSet}): it takes over the ladder's state`,
      );
    const started = process.hrtime.bigint();
    const folded =
      flags.events !== undefined
        ? await foldFile(asIs, variant, flags.events, flags)
        : await foldStore(asIs, variant, env.DATABASE_URL, flags.changesFrom);
    const head = {
      source: folded.source,
      simulate: folded.simulate,
      until: folded.until,
      rejected: folded.rejected,
    };
    const { report } = folded;
    await writeChunks(
      flags.out,
      flags.html ? [whatIfPage(report, describeSource(folded))] : renderWhatIf(report, head),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { summary } = report;
    const log = new CommandLog('whatif');
    log.info(
      `ladder ${report.ladder}: ${summary.moved} of ${summary.players} players moved ` +
        `(mean |change| ${summary.meanAbsoluteChange.toFixed(2)}, largest ${summary.largestAbsoluteChange}), ` +
        `Kendall tau ${summary.kendallTau === null ? 'undefined' : summary.kendallTau.toFixed(4)}, ` +
        `top ${summary.top.size}: ${summary.top.left.length} left, ${summary.top.entered.length} entered ` +
        `(${seconds.toFixed(2)} s) -> ${flags.out}`,
      {
        ladder: report.ladder,
        players: summary.players,
        moved: summary.moved,
        kendallTau: summary.kendallTau,
        seconds: Number(seconds.toFixed(3)),
        out: flags.out,
      },
    );
    if (folded.rejected.asIs !== folded.rejected.variant)
      log.warn(
        `warning: the variant rejected ${folded.rejected.variant} events, the ladder as it is ${folded.rejected.asIs}`,
        { ladder: report.ladder, rejected: folded.rejected },
      );
  }

  @Option({ flags: '--ladder <id>', description: 'the ladder to compare', required: true })
  parseLadder(value: string): string {
    return value;
  }

  @Option({
    flags: '--ladders <file>',
    description:
      "a ladders file (JSON array) whose entry for the ladder replaces its settings (omitted keys keep the ladder's)",
    required: true,
  })
  parseLadders(value: string): string {
    return value;
  }

  @Option({ flags: '--events <file>', description: 'fold this NDJSON file (as `replay` reads it)' })
  parseEvents(value: string): string {
    return value;
  }

  @Option({
    flags: '--from-store',
    description:
      "fold the ladder's events from the PostgreSQL event store (as `rebuild` reads them)",
  })
  parseFromStore(): boolean {
    return true;
  }

  @Option({
    flags: '--changes-from <iso>',
    description:
      'with --from-store: the variant takes over from this instant on (the events recorded by ' +
      'then are folded as the ladder is, the later ones under the variant)',
  })
  parseChangesFrom(value: string): number {
    return instantFlag('--changes-from', value);
  }

  @Option({
    flags: '--simulate',
    description: 'with --events: also play the maintenance service in both folds, as `replay` does',
  })
  parseSimulate(): boolean {
    return true;
  }

  @Option({
    flags: '--until <iso>',
    description: 'with --simulate: close periods up to this instant at the end',
  })
  parseUntil(value: string): number {
    return instantFlag('--until', value);
  }

  @Option({ flags: '--out <file>', description: 'where to write the report', required: true })
  parseOut(value: string): string {
    return value;
  }

  @Option({
    flags: '--html',
    description: 'write a self-contained HTML page (charts included) instead of JSON',
  })
  parseHtml(): boolean {
    return true;
  }
}

/** The variant, or one line naming the flag, the file and what is wrong. */
function loadVariant(asIs: LadderConfig, file: string): LadderConfig {
  try {
    return loadLadderVariant(asIs, file);
  } catch (error) {
    throw new Error(`--ladders ${(error as Error).message}`);
  }
}

/**
 * Both folds from one read of the file, as `ranking replay` folds it (a worker parses, this
 * thread folds; the same ReplayEngine, so duplicate ids and --simulate behave alike). Lines of
 * other ladders, and lines no ladder accepts, cannot change this ladder: they are left out.
 */
async function foldFile(
  asIs: LadderConfig,
  variant: LadderConfig,
  file: string,
  flags: Pick<WhatIfFlags, 'simulate' | 'until'>,
): Promise<Folded> {
  const simulate = flags.simulate === true;
  const engines = [asIs, variant].map(
    (ladder) => new ReplayEngine(new Map([[ladder.id, ladder]]), { simulate }),
  );
  const bar = progressBar(await fileSize(file), 'bytes', 'whatif');
  await replayFile(
    {
      ingestParsed: (parsed) => {
        if (!parsed.ok || parsed.event.ladder !== asIs.id) return;
        for (const engine of engines) engine.ingestParsed(parsed);
      },
    },
    file,
    (bytes) => bar.update(bytes),
  );
  bar.stop();
  for (const engine of engines) engine.finish(flags.until ?? null);
  const [before, after] = engines.map(
    (engine, i) => engine.ladderFolds.get(asIs.id) ?? new LadderFold([asIs, variant][i]!),
  );
  return {
    source: { from: 'events', file },
    simulate,
    until: flags.until === undefined ? null : new Date(flags.until).toISOString(),
    rejected: { asIs: engines[0]!.rejected.length, variant: engines[1]!.rejected.length },
    report: whatIfReport(before!, after!),
  };
}

/**
 * Both folds from the store as `ranking rebuild` folds it (`foldFromStore`, no simulation: the
 * store holds the maintenance service's closes and penalties as events), on one repeatable-read
 * transaction. The ladder as it is starts from its newest usable snapshot. The variant is folded
 * from the log's start (snapshots record the settings they were folded under), or, with
 * `changesFrom`, from the ladder's state where the events recorded by then end
 * (`ChangedFromStore`): its settings apply to the later events only.
 */
async function foldStore(
  asIs: LadderConfig,
  variant: LadderConfig,
  databaseUrl: string,
  changesFrom: number | undefined,
): Promise<Folded> {
  const db = createDataSource(databaseUrl, 'ranking-whatif');
  await db.initialize();
  try {
    return await db.transaction('REPEATABLE READ', (manager) =>
      withOffThreadPayloads(async (parser) => {
        const sql = sqlOf(manager);
        const storeOf = (ladder: LadderConfig) =>
          new PgLadderStore(sql, new Map([[ladder.id, ladder]]), parser);
        const progress = (store: LadderStore) => new ProgressLadderStore(store, 'whatif');
        // Players only: the skill estimate is not part of a what-if.
        const before = await foldFromStore(progress(storeOf(asIs)), asIs, { skill: false });
        let after;
        let source: Folded['source'] = { from: 'store' };
        if (changesFrom === undefined)
          after = await foldFromStore(progress(storeOf(variant)), variant, { skill: false });
        else {
          const instant = new Date(changesFrom);
          const position = await storeOf(asIs).recordedBy(asIs.id, instant);
          const changed = new ChangedFromStore(progress(storeOf(asIs)), asIs, position, {
            skill: false,
          });
          after = await foldFromStore(changed, variant, { skill: false });
          if (after.from !== position)
            throw new Error(
              `--changes-from ${instant.toISOString()}: an annulment recorded later covers games recorded by then (it re-folds the ladder's state then): name an instant before the first game it covers`,
            );
          source = { from: 'store', changesFrom: instant.toISOString(), position };
        }
        return {
          source,
          simulate: false,
          until: null,
          rejected: { asIs: before.rejected, variant: after.rejected },
          report: whatIfReport(before.fold, after.fold),
        };
      }),
    );
  } finally {
    await db.destroy();
  }
}

const describeSource = (folded: Folded): string =>
  folded.source.from === 'events'
    ? `Events from ${folded.source.file}${folded.simulate ? `, maintenance simulated${folded.until ? ` up to ${folded.until}` : ''}` : ''}`
    : `Events from the event store${folded.source.changesFrom === undefined ? '' : `, the variant from the events recorded after ${folded.source.changesFrom} (position ${folded.source.position})`}`;
