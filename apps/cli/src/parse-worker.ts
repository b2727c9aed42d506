// The parse worker of `ranking replay` (see parsed-lines.ts): reads the file, splits its lines,
// parses and validates them, and posts them in batches, never more than its credits ahead of
// the thread that folds them. An error (an unreadable file, …) is thrown out of the worker,
// which the folding thread reports.
import { parentPort, workerData } from 'node:worker_threads';
import { ndjsonLines } from './ndjson-lines.js';
import { BatchBuilder } from './parsed-batch.js';
import type { ParseWorkerData, WorkerMessage } from './parse-worker-protocol.js';

const { file, batchLines, credits: initialCredits } = workerData as ParseWorkerData;
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
  port.postMessage(message);
};

let bytesRead = 0;
const builder = new BatchBuilder();
for await (const line of ndjsonLines(file, (bytes) => (bytesRead = bytes))) {
  builder.add(line);
  if (builder.size >= batchLines) await post({ kind: 'batch', batch: builder.take(bytesRead) });
}
if (builder.size > 0) await post({ kind: 'batch', batch: builder.take(bytesRead) });
port.postMessage({ kind: 'end' } satisfies WorkerMessage);
// Nothing left to wait for: let the worker end.
port.off('message', onCredit);
