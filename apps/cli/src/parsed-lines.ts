import { Worker } from 'node:worker_threads';
import type { ParsedBatch } from './parsed-batch.js';
import type { ParseWorkerData, WorkerMessage } from './parse-worker-protocol.js';

/** The built parse worker, next to this file. */
export const PARSE_WORKER = new URL('./parse-worker.js', import.meta.url);

export interface ParsedLinesOptions {
  /** The worker's script (tests run the built one: Jest runs this file from its source). */
  readonly worker?: URL;
  readonly batchLines?: number;
  /** Batches parsed ahead of the fold at most: bounds the memory the pipeline holds. */
  readonly credits?: number;
}

/**
 * A file's lines parsed and validated by a worker thread, in batches in file order, while this
 * thread folds the ones before. A failure of the worker (an unreadable file, a crash, its
 * memory cap) is thrown here once the batches it sent before are taken, never waited for.
 */
export async function* parsedLines(
  file: string,
  options: ParsedLinesOptions = {},
): AsyncGenerator<ParsedBatch> {
  const workerData: ParseWorkerData = {
    file,
    batchLines: options.batchLines ?? 2000,
    credits: Math.max(options.credits ?? 8, 2),
  };
  const worker = new Worker(options.worker ?? PARSE_WORKER, {
    workerData,
    // It holds a few batches only: a small young generation keeps its memory small (the CLI's
    // --max-semi-space-size, meant for the fold, would otherwise apply to it too).
    resourceLimits: { maxYoungGenerationSizeMb: 32 },
  });
  const queue: WorkerMessage[] = [];
  // Set by the handlers below (a declared type, so the loop does not read it as always null).
  let failure = null as Error | null;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    signal();
  });
  worker.on('error', (error) => {
    failure ??= error;
    signal();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the parse worker of ${file} stopped (exit code ${code}) before the end`);
    signal();
  });
  const giveBack = workerData.credits >> 1;
  let taken = 0;
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      } else if (message.kind === 'end') {
        return;
      } else {
        if (++taken === giveBack) {
          worker.postMessage(taken);
          taken = 0;
        }
        yield message.batch;
      }
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
