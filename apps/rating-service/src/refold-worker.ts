// The rating service's refold thread (ADR 24): annulments re-folded and swapped in, and
// snapshots written, on a thread and a PostgreSQL connection of their own, so that the
// consumer's partitions keep flowing on the main thread meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { backoffDelay } from '@ranking/kafka';
import { createDataSource } from '@ranking/persistence';
import { AnnulmentRefolder } from './annulment-refolder.js';
import type {
  RefoldWorkerData,
  RefoldWorkerInput,
  RefoldWorkerOutput,
} from './refold-worker-protocol.js';

const port = parentPort!;
const data = workerData as RefoldWorkerData;
const post = (output: RefoldWorkerOutput) => port.postMessage(output);

let stopping = false;
let wake: (() => void) | null = null;
port.on('message', (input: RefoldWorkerInput) => {
  if (input === 'stop') stopping = true;
  wake?.();
});
const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });

const db = createDataSource(data.databaseUrl, 'rating-service-refold');
const refolder = new AnnulmentRefolder(db, new Map(data.ladders.map((l) => [l.id, l])), {
  topics: { ratingChanges: data.ratingChanges },
  snapshotEvery: data.snapshotEvery,
  snapshotsKept: data.snapshotsKept,
});

/** How often an idle thread asks whether a ladder is due a snapshot. */
const SNAPSHOT_CHECK_MS = 5_000;
let nextSnapshotCheck = 0;
let failures = 0;
while (!stopping) {
  try {
    if (!db.isInitialized) await db.initialize();
    let busy = false;
    for (const ladder of await refolder.pendingLadders()) {
      if (stopping) break;
      const swapped = await refolder.refold(ladder);
      if (swapped) post({ swapped });
      busy = true;
    }
    // Pending annulments first: a snapshot is written only when none waits. Whether one is
    // due is asked every few seconds (a query a ladder), not at every poll for annulments.
    if (!busy && !stopping && Date.now() >= nextSnapshotCheck) {
      const snapshot = await refolder.snapshotDue();
      if (snapshot) post({ snapshot });
      busy = snapshot !== null;
      if (!busy) nextSnapshotCheck = Date.now() + SNAPSHOT_CHECK_MS;
    }
    failures = 0;
    if (!busy) await pause(data.pollMs);
  } catch (error) {
    // PostgreSQL away, or a re-fold that failed: nothing was swapped (the swap is one
    // transaction); the annulment stays pending and is tried again.
    failures++;
    const retryInMs = backoffDelay(failures);
    post({ failed: error instanceof Error ? error.message : String(error), retryInMs });
    await pause(retryInMs);
  }
}
if (db.isInitialized) await db.destroy();
post({ stopped: true });
port.close();
