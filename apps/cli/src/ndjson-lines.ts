import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

const LINE_FEED = 0x0a;

/**
 * Streams a file's lines as bytes, without loading it whole, reporting bytes read as it goes.
 * Lines end at `\n` only (readline also ends one at a bare `\r`, which is JSON whitespace
 * inside a line). The bytes are not decoded here, so that the parser can refuse a line that is
 * not UTF-8 rather than read it with replacement characters. A line is mostly a view into the
 * chunk read, so keeping one keeps its whole chunk.
 */
export async function* ndjsonLines(
  file: string,
  onBytes: (bytes: number) => void = () => undefined,
  chunkBytes = 1 << 20,
): AsyncGenerator<Buffer> {
  const input = createReadStream(file, { highWaterMark: chunkBytes });
  // The start of a line that runs past its chunk, joined once its end is read: joining at
  // every chunk instead would copy a long line over and over.
  let pending: Buffer[] = [];
  for await (const chunk of input as AsyncIterable<Buffer>) {
    onBytes(input.bytesRead);
    let start = 0;
    for (let end = chunk.indexOf(LINE_FEED); end >= 0; end = chunk.indexOf(LINE_FEED, start)) {
      const tail = chunk.subarray(start, end);
      if (pending.length === 0) yield tail;
      else {
        yield Buffer.concat([...pending, tail]);
        pending = [];
      }
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield Buffer.concat(pending);
}

export const fileSize = async (file: string): Promise<number> => (await stat(file)).size;
