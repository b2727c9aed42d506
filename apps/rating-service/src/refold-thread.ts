import { Worker } from 'node:worker_threads';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Environment } from '@ranking/config';
import { topicNames } from '@ranking/kafka';
import { ServiceMetrics } from '@ranking/operations';
import type { LadderConfig } from '@ranking/rating';
import { OutboxRelay } from './outbox-relay.js';
import type {
  RefoldWorkerData,
  RefoldWorkerInput,
  RefoldWorkerOutput,
} from './refold-worker-protocol.js';
import { ENVIRONMENT, LADDERS } from './tokens.js';

const WORKER = new URL('./refold-worker.js', import.meta.url);
/** How often the thread looks for pending annulments and due snapshots when idle. */
const POLL_MS = 200;
/** How long a stop waits for a swap or snapshot in progress before the thread is terminated. */
const STOP_WAIT_MS = 30_000;

/**
 * The refold thread (refold-worker.ts) of the rating service: started with it, restarted if it
 * dies, stopped after the consumer. It reports swaps and snapshots here, where they are logged
 * and counted, and a swap's messages are handed to the outbox relay at once.
 */
@Injectable()
export class RefoldThread implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RefoldThread.name);
  private worker: Worker | null = null;
  private stopping = false;

  constructor(
    @Inject(ENVIRONMENT) private readonly env: Environment,
    @Inject(LADDERS) private readonly ladders: ReadonlyMap<string, LadderConfig>,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.start();
  }

  /** Wakes the thread (a batch accepted an annulment). */
  wake(): void {
    this.worker?.postMessage('wake' satisfies RefoldWorkerInput);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop' satisfies RefoldWorkerInput);
    const timer = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private start(): void {
    const data: RefoldWorkerData = {
      databaseUrl: this.env.DATABASE_URL,
      ladders: [...this.ladders.values()],
      ratingChanges: topicNames(this.env.KAFKA_TOPIC_PREFIX).ratingChanges,
      snapshotEvery: this.env.SNAPSHOT_EVERY_EVENTS,
      snapshotsKept: this.env.SNAPSHOTS_KEPT,
      pollMs: POLL_MS,
    };
    const worker = new Worker(WORKER, { workerData: data });
    this.worker = worker;
    worker.on('message', (output: RefoldWorkerOutput) => this.report(output));
    worker.on('error', (error: Error) =>
      this.logger.error(`the refold thread failed: ${error.message}`),
    );
    worker.on('exit', (code) => {
      this.worker = null;
      if (this.stopping) return;
      this.logger.error(`the refold thread stopped (exit code ${code}); starting it again`);
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, 1000).unref();
    });
  }

  private report(output: RefoldWorkerOutput): void {
    if ('swapped' in output) {
      const r = output.swapped;
      this.metrics.annulmentSwaps.observe({ phase: 'refold' }, r.refoldSeconds);
      this.metrics.annulmentSwaps.observe({ phase: 'lock' }, r.lockSeconds);
      this.relay.wake();
      this.logger.log(
        `ladder ${r.ladder}: ${r.annulments} annulment(s) swapped in at position ${r.swappedAt} ` +
          `(re-folded from ${r.from} to ${r.read} in ${r.refoldSeconds.toFixed(2)} s, ` +
          `${r.caughtUp} events caught up under a ${r.lockSeconds.toFixed(3)} s lock), ${r.moved} players moved; ` +
          `${r.gameRows.written} of its ${r.gameRows.refolded} game rows pre-written; ` +
          `steps (s): ${(Object.entries(r.steps) as [string, number][])
            .map(([step, s]) => `${step} ${s.toFixed(3)}`)
            .join(', ')}`,
      );
    } else if ('snapshot' in output) {
      const s = output.snapshot;
      this.metrics.snapshotsWritten.inc({ ladder: s.ladder });
      this.logger.log(
        `ladder ${s.ladder}: snapshot at position ${s.position} (${s.seconds.toFixed(2)} s)`,
      );
    } else if ('failed' in output) {
      this.logger.warn(
        `annulment or snapshot failed, retrying in ${output.retryInMs} ms: ${output.failed}`,
      );
    }
  }
}
