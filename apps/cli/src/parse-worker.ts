// A parse worker of `ranking replay` (see parsed-lines.ts): reads the file, splits its lines,
// parses and validates those of its share of the batches, and posts them, never more than its
// credits ahead of the thread that folds them. An error (an unreadable file, …) is thrown out
// of the worker, which the folding thread reports.
import { parentPort, workerData } from 'node:worker_threads';
import { ndjsonLines } from './ndjson-lines.js';
import { BatchBuilder, transferables } from './parsed-batch.js';
import type { ParseWorkerData, WorkerMessage } from './parse-worker-protocol.js';

const { file, batchLines, credits: initialCredits, share } = workerData as ParseWorkerData;
const port = parentPort!;

let credits = initialCredits;
let wake: (() => void) | null = null;
const onCredit = (returned: number) => {
  credits += returned;
  wake?.();
  wake = null;
};
port.on('message', onCredit);

const post = async (message: WorkerMessage): Promise<void> => {
  if (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  port.postMessage(message, message.kind === 'batch' ? transferables(message.batch) : []);
};

let bytesRead = 0;
const builder = new BatchBuilder();
let batch = 0;
let inBatch = 0;
for await (const line of ndjsonLines(file, (bytes) => (bytesRead = bytes))) {
  const ours = batch % share.of === share.index;
  if (ours) builder.add(line);
  if (++inBatch === batchLines) {
    if (ours) await post({ kind: 'batch', batch: builder.take(bytesRead) });
    batch++;
    inBatch = 0;
  }
}
if (builder.size > 0) await post({ kind: 'batch', batch: builder.take(bytesRead) });
port.postMessage({ kind: 'end' } satisfies WorkerMessage);
// Nothing left to wait for: let the worker end.
port.off('message', onCredit);
