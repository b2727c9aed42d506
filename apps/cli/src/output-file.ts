import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';

/** Writes chunks to a temporary file and renames it into place, so a reader never sees half a file. */
export async function writeChunks(file: string, chunks: Iterable<string>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temporary, { encoding: 'utf8' });
  for (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  await rename(temporary, file);
}
