import { Worker } from 'node:worker_threads';
import { type LadderConfig, RULE_SETS, type PlayerState } from '@ranking/rating';
import type { FoldWorkerData, FoldWorkerInput, FoldWorkerOutput } from './fold-worker-protocol.js';

const WORKER = new URL('./fold-worker.js', import.meta.url);

/** A fold's result as the what-if report reads it. */
export interface FoldResult {
  readonly ladder: LadderConfig;
  readonly rules: (typeof RULE_SETS)[keyof typeof RULE_SETS];
  readonly players: ReadonlyMap<string, PlayerState>;
  readonly accepted: number;
  readonly rejected: number;
}

/**
 * A fold of one ladder on a worker thread, fed batches of payloads in log order (`add`) and
 * asked for its players at the end (`result`). A failure of the thread is thrown by `result`.
 */
export class FoldWorkerHandle {
  private readonly worker: Worker;
  private readonly done: Promise<FoldWorkerOutput>;

  constructor(private readonly data: FoldWorkerData) {
    this.worker = new Worker(WORKER, { workerData: data });
    this.done = new Promise((resolve) => {
      this.worker.once('message', resolve);
      this.worker.once('error', (error) => resolve({ error: error.message }));
      this.worker.once('exit', (code) =>
        resolve({ error: `the fold thread stopped (exit code ${code}) before the end` }),
      );
    });
  }

  add(batch: string): void {
    this.worker.postMessage(batch satisfies FoldWorkerInput);
  }

  async result(): Promise<FoldResult> {
    this.worker.postMessage({ end: true } satisfies FoldWorkerInput);
    const output = await this.done;
    await this.worker.terminate();
    if ('error' in output) throw new Error(`folding ${this.data.ladder.id}: ${output.error}`);
    const { ladder } = this.data;
    return {
      ladder,
      rules: RULE_SETS[ladder.ruleSet],
      players: new Map(output.players.map((p) => [p.id, p])),
      accepted: output.accepted,
      rejected: output.rejected,
    };
  }
}
