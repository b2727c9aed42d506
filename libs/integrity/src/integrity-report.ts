import type { JudgedDuel } from './duel.js';
import {
  type Suspect,
  WIN_TRADING_DEFAULTS,
  type WinTradingOptions,
  winTradingSuspects,
} from './win-trading.js';

/** A suspect with what an operator runs next: the annulment's dry run for the beneficiary. */
export interface ReportedSuspect extends Suspect {
  readonly dryRun: string;
}

/** `ranking integrity`'s report: per ladder, its two-player games and its suspects. */
export interface IntegrityReport {
  readonly thresholds: WinTradingOptions;
  readonly ladders: Record<
    string,
    { readonly games: number; readonly suspects: readonly ReportedSuspect[] }
  >;
}

/** Single-quoted for a POSIX shell. */
const quoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** The command that shows what annulling the beneficiary since the run's first game would move. */
export const dryRunCommand = (ladder: string, suspect: Suspect): string =>
  `ranking annul --dry-run --ladder ${quoted(ladder)} --player ${quoted(suspect.players[0])} --since ${quoted(suspect.since)} --note ${quoted(`win-trading with ${suspect.players[1]}`)}`;

/** The report over every ladder's duels, ladders in id order (the same duels give the same bytes). */
export function integrityReport(
  duelsByLadder: ReadonlyMap<string, readonly JudgedDuel[]>,
  options: WinTradingOptions = WIN_TRADING_DEFAULTS,
): IntegrityReport {
  const ladders: Record<string, { games: number; suspects: ReportedSuspect[] }> = {};
  for (const ladder of [...duelsByLadder.keys()].sort()) {
    const duels = duelsByLadder.get(ladder)!;
    ladders[ladder] = {
      games: duels.length,
      suspects: winTradingSuspects(duels, options).map((s) => ({
        ...s,
        dryRun: dryRunCommand(ladder, s),
      })),
    };
  }
  return { thresholds: options, ladders };
}
