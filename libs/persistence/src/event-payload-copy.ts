import type { ClientBase } from 'pg';
import { to as copyToStdout } from 'pg-copy-streams';
import { sqlLiteral } from './copy-to.js';

/**
 * Bytes of text in a batch at most (unless one payload is longer): a batch posted from a worker
 * thread is copied, and above about 128 kB V8 keeps a string in its large-object space, where
 * each one cost milliseconds to allocate and free (1,500 batches of 256 kB took 8 s of CPU to
 * post, 6,000 of 64 kB took 0.4 s).
 */
const BATCH_BYTES = 48 * 1024;
const NEWLINE = 0x0a;

/**
 * What COPY's text format writes after a backslash for a character it escapes. A line break
 * comes back as a space: in a JSON document it can only be whitespace between tokens (JSON
 * escapes the ones inside strings), and a raw one would split the payload's line.
 */
const UNESCAPED: Record<string, string> = { b: '\b', f: '\f', n: ' ', r: ' ', t: '\t', v: '\v' };

/**
 * COPY text rows back to the stored JSON texts, one a line. COPY writes a backslash as two and
 * a control character as a backslash and a letter, so this only works where a payload holds a
 * backslash (an escaped quote, say): most batches have none and are returned as they are.
 */
export function unescapeCopyText(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([\s\S])/g, (_, c: string) => UNESCAPED[c] ?? c);
}

/** The COPY statement of one ladder's event-store payloads in seq order. */
export const ladderPayloadsCopy = (ladder: string): string =>
  `COPY (SELECT payload FROM event_store WHERE ladder = ${sqlLiteral(ladder)} ORDER BY seq) TO STDOUT`;

/**
 * One ladder's event-store payloads in seq order, streamed by `COPY … TO STDOUT`: batches of
 * text, each payload followed by a newline (COPY escapes a newline inside a row, so each one
 * ends a payload). PostgreSQL streams rows as it reads them, with no page queries and no row
 * objects, and the client decodes a batch at a time. Runs on the client's current transaction
 * (and so its snapshot); the client must be node-postgres's own, not one shared by a pool.
 */
export function copyEventPayloads(client: ClientBase, ladder: string): AsyncGenerator<string> {
  return payloadBatches(client.query(copyToStdout(ladderPayloadsCopy(ladder))));
}

/** `ladderPayloadsCopy`'s output (COPY text rows) as batches of payloads, one a line. */
export async function* payloadBatches(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer | null = null;
  for await (const chunk of chunks) {
    const data: Buffer = rest === null ? chunk : Buffer.concat([rest, chunk]);
    let at = 0;
    // Whole rows up to BATCH_BYTES at a time (a newline byte never occurs inside a UTF-8
    // character); the rest waits for the next chunk, the last batch for the end of the COPY.
    while (data.length - at >= BATCH_BYTES) {
      let end = data.lastIndexOf(NEWLINE, at + BATCH_BYTES - 1);
      if (end < at) end = data.indexOf(NEWLINE, at + BATCH_BYTES);
      if (end < 0) break;
      yield unescapeCopyText(data.toString('utf8', at, end + 1));
      at = end + 1;
    }
    rest = at < data.length ? data.subarray(at) : null;
  }
  if (rest !== null) yield unescapeCopyText(rest.toString('utf8'));
}
