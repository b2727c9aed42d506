import type { ReceivedBatch } from './parsed-batch.js';
import { ParseWorkerHandle } from './parse-worker-handle.js';

/** The built parse worker, next to this file. */
export const PARSE_WORKER = new URL('./parse-worker.js', import.meta.url);

export interface ParsedLinesOptions {
  /** The worker's script (tests run the built one: Jest runs this file from its source). */
  readonly worker?: URL;
  /** Parse workers: each reads the whole file and parses every n-th batch. */
  readonly workers?: number;
  readonly batchLines?: number;
  /** Batches a worker parses ahead of the fold at most: bounds the memory the pipeline holds. */
  readonly credits?: number;
}

/**
 * A file's lines parsed and validated by worker threads, in batches in file order, while this
 * thread folds the ones before. With several workers, batch k comes from worker k mod n; the
 * file must not change meanwhile, so that they all split it alike.
 */
export async function* parsedLines(
  file: string,
  options: ParsedLinesOptions = {},
): AsyncGenerator<ReceivedBatch> {
  const workers = Math.max(options.workers ?? 1, 1);
  const handles = Array.from(
    { length: workers },
    (_, index) =>
      new ParseWorkerHandle(options.worker ?? PARSE_WORKER, {
        file,
        batchLines: options.batchLines ?? 2000,
        credits: Math.max(options.credits ?? 8, 2),
        share: { index, of: workers },
      }),
  );
  try {
    for (let k = 0; ; k++) {
      const batch = await handles[k % workers]!.next();
      if (batch === null) return;
      yield batch;
    }
  } finally {
    await Promise.all(handles.map((h) => h.stop()));
  }
}
