/** Code units per chunk: 2 MB each. */
const CHUNK = 1 << 20;

/**
 * Strings kept one after another as UTF-16 code units, in chunks that are never copied or
 * moved: a million kept ids cost the garbage collector nothing, where a million strings would
 * each be copied out of the young generation and traced at every full collection. A text is
 * named by where it starts and ends (`put` returns the end, which is where the next one starts;
 * a text never spans two chunks).
 */
export class TextArena {
  private readonly chunks: Uint16Array[] = [new Uint16Array(4096)];
  /** Where the next text goes. */
  private end = 0;

  /** Keeps a copy of the text after the last one; returns where it ends. */
  put(text: string): number {
    const length = text.length;
    if (length > CHUNK) throw new Error(`text of ${length} characters is too long to keep`);
    let start = this.end;
    let chunk = this.chunks[Math.floor(start / CHUNK)];
    const offset = start % CHUNK;
    if (chunk === undefined || offset + length > CHUNK) {
      // The next chunk: a text is never split.
      start = Math.ceil(start / CHUNK) * CHUNK;
      chunk = new Uint16Array(Math.max(length, 4096));
      this.chunks[start / CHUNK] = chunk;
    } else if (offset + length > chunk.length) {
      // The first chunk starts small (a fold restored for a batch keeps a few games) and grows
      // to a whole chunk.
      const grown = new Uint16Array(Math.min(CHUNK, Math.max(chunk.length * 4, offset + length)));
      grown.set(chunk);
      chunk = grown;
      this.chunks[Math.floor(start / CHUNK)] = chunk;
    }
    const at = start % CHUNK;
    for (let i = 0; i < length; i++) chunk[at + i] = text.charCodeAt(i);
    this.end = start + length;
    return this.end;
  }

  /** The text that ends at `end`, given where the one before it ended. */
  get(previousEnd: number, end: number): string {
    const start = this.startOf(previousEnd, end);
    if (start === end) return '';
    const { chunk, at } = this.place(previousEnd, end);
    let text = '';
    // In slices: an argument list has a limit.
    for (let from = at; from < at + (end - start); from += 8192) {
      const to = Math.min(at + (end - start), from + 8192);
      text += String.fromCharCode.apply(null, chunk.subarray(from, to) as unknown as number[]);
    }
    return text;
  }

  /** Whether the text that ends at `end` equals `text`, without building a string. */
  equals(previousEnd: number, end: number, text: string): boolean {
    const start = this.startOf(previousEnd, end);
    if (end - start !== text.length) return false;
    const { chunk, at } = this.place(previousEnd, end);
    for (let i = 0; i < text.length; i++) if (chunk[at + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /** A hash of a text (FNV-1a over its code units), non-negative, for an index of kept texts. */
  hashOf(text: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 1;
  }

  /** Where a text starts: right after the one before, or at the start of the next chunk. */
  private startOf(previousEnd: number, end: number): number {
    const chunkStart = Math.floor((end - 1) / CHUNK) * CHUNK;
    return previousEnd < chunkStart ? chunkStart : previousEnd;
  }

  private place(previousEnd: number, end: number): { chunk: Uint16Array; at: number } {
    const start = this.startOf(previousEnd, end);
    return { chunk: this.chunks[Math.floor(start / CHUNK)]!, at: start % CHUNK };
  }
}
