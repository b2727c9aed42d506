import type { ParsedBatch } from './parsed-batch.js';

/** What the parse worker is started with. */
export interface ParseWorkerData {
  readonly file: string;
  /** Lines a batch: fewer, larger messages wake the other thread less often. */
  readonly batchLines: number;
  /**
   * Batches the worker may post ahead of the folding thread, which gives them back half at a
   * time (a number posted to the worker), so the worker wakes once for several batches.
   */
  readonly credits: number;
  /** This worker parses batch k when k mod `of` is `index`, and only counts the others' lines. */
  readonly share: { readonly index: number; readonly of: number };
}

/** What the parse worker posts: batches in file order, then the end. */
export type WorkerMessage =
  { readonly kind: 'batch'; readonly batch: ParsedBatch } | { readonly kind: 'end' };
