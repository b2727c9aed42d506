import { createReadStream } from 'node:fs';

const LINE_FEED = 0x0a;
/**
 * What a line holding a `player.annulled` must contain: the type as written, or a `\u` escape,
 * the only escape that can spell one of its characters.
 */
const NEEDLES = [Buffer.from('player.annulled'), Buffer.from('\\u')];

/**
 * The ladders a file's `player.annulled` lines name: `ranking replay` keeps the log of these
 * ladders only, since an annulment re-folds its ladder from its log and a log of every ladder
 * would not fit in memory. The file is read once more before the replay, at the speed of a
 * byte search: only the lines that hold a needle are parsed, so no line that the replay could
 * accept as an annulment is missed, and a line that is not one names nothing.
 */
export async function annulledLadders(file: string, chunkBytes = 1 << 20): Promise<Set<string>> {
  const ladders = new Set<string>();
  // The start of a line that runs past its chunk, joined once its end is read.
  let pending: Buffer[] = [];
  const input = createReadStream(file, { highWaterMark: chunkBytes });
  for await (const chunk of input as AsyncIterable<Buffer>) {
    const end = chunk.lastIndexOf(LINE_FEED);
    if (end < 0) {
      pending.push(chunk);
      continue;
    }
    const lines = pending.length === 0 ? chunk : Buffer.concat([...pending, chunk]);
    const whole = pending.reduce((n, b) => n + b.length, 0) + end;
    scan(lines.subarray(0, whole), ladders);
    pending = [chunk.subarray(end + 1)];
  }
  scan(Buffer.concat(pending), ladders);
  return ladders;
}

/** Adds the ladder of every annulment among whole lines. */
function scan(text: Buffer, ladders: Set<string>): void {
  for (const needle of NEEDLES) {
    for (let at = text.indexOf(needle); at >= 0;) {
      const start = text.lastIndexOf(LINE_FEED, at) + 1;
      const found = text.indexOf(LINE_FEED, at);
      const end = found < 0 ? text.length : found;
      const ladder = annulledLadderOf(text.subarray(start, end));
      if (ladder !== null) ladders.add(ladder);
      at = found < 0 ? -1 : text.indexOf(needle, end);
    }
  }
}

function annulledLadderOf(line: Buffer): string | null {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, ladder } = value as Record<string, unknown>;
  return type === 'player.annulled' && typeof ladder === 'string' ? ladder : null;
}
