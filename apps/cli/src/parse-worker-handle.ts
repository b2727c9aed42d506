import { Worker } from 'node:worker_threads';
import { TapeReader } from './event-tape.js';
import { ReceivedBatch } from './parsed-batch.js';
import type { ParseWorkerData, WorkerMessage } from './parse-worker-protocol.js';

/**
 * One parse worker seen from the folding thread: its batches queued as they arrive, its credits
 * given back half at a time, its failure (an unreadable file, a crash, its memory cap) thrown
 * once the batches it sent before are taken, never waited for.
 */
export class ParseWorkerHandle {
  private readonly worker: Worker;
  private readonly queue: WorkerMessage[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private taken = 0;
  /** The strings and shapes this worker sent so far. */
  private readonly reader = new TapeReader();

  constructor(
    script: URL,
    private readonly data: ParseWorkerData,
  ) {
    this.worker = new Worker(script, {
      workerData: data,
      // It holds a few batches only: a small young generation keeps its memory small (the
      // CLI's --max-semi-space-size, meant for the fold, would otherwise apply to it too).
      resourceLimits: { maxYoungGenerationSizeMb: 32 },
    });
    this.worker.on('message', (message: WorkerMessage) => {
      this.queue.push(message);
      this.signal();
    });
    this.worker.on('error', (error) => {
      this.failure ??= error;
      this.signal();
    });
    this.worker.on('exit', (code) => {
      this.failure ??= new Error(
        `the parse worker of ${data.file} stopped (exit code ${code}) before the end`,
      );
      this.signal();
    });
  }

  /** The worker's next batch, or null at the end of its share of the file. */
  async next(): Promise<ReceivedBatch | null> {
    for (;;) {
      const message = this.queue.shift();
      if (message === undefined) {
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve) => (this.wake = resolve));
      } else if (message.kind === 'end') {
        return null;
      } else {
        if (++this.taken === this.data.credits >> 1) {
          this.worker.postMessage(this.taken);
          this.taken = 0;
        }
        return new ReceivedBatch(message.batch, this.reader);
      }
    }
  }

  async stop(): Promise<void> {
    this.worker.removeAllListeners();
    await this.worker.terminate();
  }

  private signal(): void {
    this.wake?.();
    this.wake = null;
  }
}
