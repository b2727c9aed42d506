import type { ParsedBatch } from './parsed-batch.js';

/** What the parse worker is started with. */
export interface ParseWorkerData {
  readonly file: string;
  /** A batch closes at this many lines… */
  readonly batchLines: number;
  /** …or at this many bytes of valid lines, whichever comes first. */
  readonly batchBytes: number;
  /** Batches the worker may post ahead of the folding thread: each one it takes gives one back. */
  readonly credits: number;
}

/** What the parse worker posts: batches in file order, then the end. */
export type WorkerMessage =
  { readonly kind: 'batch'; readonly batch: ParsedBatch } | { readonly kind: 'end' };
