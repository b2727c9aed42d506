// The worker thread behind `readEventPayloads`: its own connection on the caller's snapshot,
// one `COPY … TO STDOUT` of the ladder's payloads, batches of text posted in order. Receiving
// rows and decoding them costs about as much CPU as the fold will: here it runs beside it.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { copyEventPayloads } from './event-payload-copy.js';
import type { EventPayloadSource, EventPayloadMessage } from './event-payload-reader.js';

const port = parentPort!;
const source = workerData as EventPayloadSource & { window: number };
const post = (message: EventPayloadMessage) => port.postMessage(message);

// Batches posted and not yet taken: at most `window` wait in the reader's queue, so a fold
// slower than the read holds back PostgreSQL (through the socket) instead of filling memory.
let credit = source.window;
let resume: (() => void) | null = null;
port.on('message', (taken: number) => {
  credit += taken;
  resume?.();
  resume = null;
});

const client = new pg.Client({
  connectionString: source.databaseUrl,
  application_name: source.applicationName,
});
try {
  await client.connect();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  if (source.snapshot !== null)
    await client.query(`SET TRANSACTION SNAPSHOT ${client.escapeLiteral(source.snapshot)}`);
  for await (const batch of copyEventPayloads(client, source.ladder)) {
    while (credit === 0) await new Promise<void>((wake) => (resume = wake));
    credit -= 1;
    post(batch);
  }
  await client.query('COMMIT');
  post({ done: true });
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await client.end().catch(() => undefined);
  port.close();
}
