import type { LadderConfig } from '@ranking/rating';
import type { SwapReport } from './annulment-refolder.js';

/** What the refold thread starts with. */
export interface RefoldWorkerData {
  readonly databaseUrl: string;
  readonly ladders: readonly LadderConfig[];
  readonly ratingChanges: string;
  readonly snapshotEvery: number;
  readonly snapshotsKept: number;
  /** How often it looks for pending annulments and due snapshots when idle. */
  readonly pollMs: number;
}

/** The main thread to the refold thread. */
export type RefoldWorkerInput = 'wake' | 'stop';

/** The refold thread to the main thread. */
export type RefoldWorkerOutput =
  | { readonly swapped: SwapReport }
  | { readonly snapshot: { ladder: string; position: number; seconds: number } }
  | { readonly failed: string; readonly retryInMs: number }
  | { readonly stopped: true };
