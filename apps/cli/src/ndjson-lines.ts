import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';

/** Streams a file's lines without loading it whole, reporting bytes read as it goes. */
export async function* ndjsonLines(
  file: string,
  onBytes: (bytes: number) => void = () => undefined,
): AsyncGenerator<string> {
  const input = createReadStream(file, { highWaterMark: 1 << 20 });
  input.on('data', () => onBytes(input.bytesRead));
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) yield line;
}

export const fileSize = async (file: string): Promise<number> => (await stat(file)).size;
