// The parse worker of a ladder's stored log (see off-thread-payloads.ts): takes batches of
// payload texts, one JSON document a line, and gives back each batch's events as a tape, in
// the order received (the tapes' dictionaries depend on it). An error is thrown out of the
// worker, which the reading thread reports.
import { parentPort } from 'node:worker_threads';
import { tapeBuffers, TapeWriter } from './event-tape.js';

const port = parentPort!;
const writer = new TapeWriter();
port.on('message', (text: string) => {
  // Line by line as the inline parser does (libs/persistence payload-parser.ts), without
  // loading that library here.
  for (let at = 0, end = text.indexOf('\n'); end >= 0; at = end + 1, end = text.indexOf('\n', at))
    writer.write(JSON.parse(text.slice(at, end)));
  const tape = writer.take();
  port.postMessage(tape, tapeBuffers(tape));
});
