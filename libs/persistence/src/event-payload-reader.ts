import { Worker } from 'node:worker_threads';

/** Where a reader thread finds a ladder's events. */
export interface EventPayloadSource {
  readonly databaseUrl: string;
  /**
   * A snapshot exported by the caller's transaction (`pg_export_snapshot()`), so the thread
   * reads the event store as the caller sees it; null reads the latest committed state.
   */
  readonly snapshot: string | null;
  readonly ladder: string;
  /** The reader connection's name in pg_stat_activity. */
  readonly applicationName: string;
}

/** What the reader thread posts: a batch of payloads (one a line), the end, or its failure. */
export type EventPayloadMessage = string | { done: true } | { error: string };

/** Batches posted ahead of the consumer: about 1.5 MB of text. */
const WINDOW = 32;
/**
 * Batches taken before the thread is told so: each message wakes the other thread, and on a
 * busy machine a wake-up per batch cost the folding thread about 6 % of its time.
 */
const ACK_EVERY = 8;
const WORKER = new URL('./event-payload-worker.js', import.meta.url);

/**
 * One ladder's event-store payloads in seq order, as `copyEventPayloads` gives them (batches
 * of text, one payload a line), read by a worker thread on a connection of its own: the
 * caller's thread only splits lines and parses them. Stopping the iteration stops the thread.
 * `worker` is the thread's built module (tests run from source point it at the build).
 */
export async function* readEventPayloads(
  source: EventPayloadSource,
  worker: URL = WORKER,
): AsyncGenerator<string> {
  const thread = new Worker(worker, { workerData: { ...source, window: WINDOW } });
  const queue: (EventPayloadMessage | { exit: number })[] = [];
  let wake: (() => void) | null = null;
  const arrive = (message: EventPayloadMessage | { exit: number }) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  thread.on('message', arrive);
  thread.on('error', (error) => arrive({ error: error.message }));
  thread.on('exit', (code) => arrive({ exit: code }));
  let taken = 0;
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift()!;
      if (typeof message === 'string') {
        if (++taken === ACK_EVERY) {
          thread.postMessage(taken); // room for that many more batches
          taken = 0;
        }
        yield message;
      } else if ('done' in message) return;
      else if ('error' in message) throw new Error(`reading the event store: ${message.error}`);
      else
        throw new Error(
          `reading the event store: the reader thread stopped (exit ${message.exit})`,
        );
    }
  } finally {
    await thread.terminate();
  }
}
