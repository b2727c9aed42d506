import type { PlayerAnnulled } from '@ranking/contracts';
import type { DuelColumns, ReportedSuspect, WinTradingOptions } from '@ranking/integrity';
import type { LadderConfig } from '@ranking/rating';

/** The review worker's tasks, by the name of the function that runs each (review-worker.ts). */
export type ReviewTaskName = 'judge' | 'dryRun';

/** Judge one ladder's duels for win-trading. */
export interface JudgeTask {
  readonly columns: DuelColumns;
  readonly thresholds: WinTradingOptions;
}

/** What a ladder's judging found: its games judged and its suspects. */
export interface JudgedLadder {
  readonly games: number;
  readonly suspects: readonly ReportedSuspect[];
}

/** Fold a ladder's stored log as it is and with the annulment at its end (annulmentPreview). */
export interface DryRunTask {
  /** The worker opens a connection of its own for the task, and closes it after. */
  readonly databaseUrl: string;
  readonly ladder: LadderConfig;
  readonly event: PlayerAnnulled;
}
