import type { Annulment, LadderConfig, PlayerState } from '@ranking/rating';

/** What a fold worker starts from: the ladder it folds and the log's annulments. */
export interface FoldWorkerData {
  readonly ladder: LadderConfig;
  readonly annulments: readonly Annulment[];
}

/** To the worker: a batch of stored payloads (one a line), or the end of the log. */
export type FoldWorkerInput = string | { readonly end: true };

/** From the worker: the fold's players and counts once the log ended, or its failure. */
export type FoldWorkerOutput =
  | {
      readonly players: readonly PlayerState[];
      readonly accepted: number;
      readonly rejected: number;
    }
  | { readonly error: string };
