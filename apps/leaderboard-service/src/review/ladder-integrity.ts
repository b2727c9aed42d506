import {
  type Duel,
  DuelCollector,
  gameEventOf,
  integrityReport,
  type ReportedSuspect,
  WIN_TRADING_DEFAULTS,
  type WinTradingOptions,
} from '@ranking/integrity';
import type { GameEventReader } from '@ranking/persistence';

/** A ladder's integrity report as the review routes answer it. */
export interface LadderSuspects {
  readonly ladder: string;
  /** Two-player games judged. */
  readonly games: number;
  /** The last stored position read: the report covers the log up to it. */
  readonly through: string;
  readonly thresholds: WinTradingOptions;
  readonly suspects: readonly ReportedSuspect[];
}

/**
 * One ladder's games as the review routes know them, kept in memory and refreshed
 * incrementally: each refresh reads only the events stored after the last one it read, and
 * judges again only if a game or correction came. Refreshes of a ladder run one at a time.
 */
export class LadderIntegrity {
  private readonly collector = new DuelCollector();
  private through = '-1';
  private report: LadderSuspects | null = null;
  private duels: readonly Duel[] = [];
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    readonly ladder: string,
    private readonly reader: GameEventReader,
  ) {}

  /** The report over everything stored by now. */
  suspects(): Promise<LadderSuspects> {
    const next = this.running.then(() => this.refresh());
    this.running = next.catch(() => undefined);
    return next;
  }

  /** The pair's games, in time order, as of the last report (refreshed first). */
  async pairGames(a: string, b: string): Promise<readonly Duel[]> {
    await this.suspects();
    return this.duels
      .filter((d) => {
        const [x, y] = d.sides;
        return (x.player === a && y.player === b) || (x.player === b && y.player === a);
      })
      .sort((x, y) => x.at - y.at);
  }

  private async refresh(): Promise<LadderSuspects> {
    let read = 0;
    for await (const { seq, payload } of this.reader.payloads(this.ladder, this.through)) {
      const event = gameEventOf(payload, (id) => id === this.ladder);
      if (event) this.collector.add(event);
      this.through = seq;
      read++;
    }
    if (this.report !== null && read === 0) return this.report;
    this.duels = this.collector.byLadder().get(this.ladder) ?? [];
    const report = integrityReport(new Map([[this.ladder, this.duels]]), WIN_TRADING_DEFAULTS);
    const judged = report.ladders[this.ladder]!;
    return (this.report = {
      ladder: this.ladder,
      games: judged.games,
      through: this.through,
      thresholds: report.thresholds,
      suspects: judged.suspects,
    });
  }
}
