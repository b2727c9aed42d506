import { float64Column, int32Column } from './columns.js';
import { TextArena } from './text-arena.js';

/**
 * Ids numbered 0, 1, 2… in the order first added, kept as UTF-16 code units in one arena behind
 * an open-addressing index (as game-book.ts keeps its game ids): a million ids retain no string
 * and no map entry, which the garbage collector would otherwise trace at every full collection.
 */
export class IdIndex {
  private count = 0;
  /** Open addressing: an id's number + 1, 0 for an empty place. */
  private index = new Int32Array(1024);
  private readonly text = new TextArena();
  private readonly hashes = int32Column();
  /** Where id n ends in the arena: entry n + 1 (entry 0 is 0). */
  private readonly ends = float64Column();

  constructor() {
    this.ends.set(0, 0);
  }

  get size(): number {
    return this.count;
  }

  /** The number of `id`, or -1. */
  find(id: string): number {
    return this.index[this.probe(id, this.text.hashOf(id))]! - 1;
  }

  /** The number of `id`, which is added when new. */
  add(id: string): number {
    const hash = this.text.hashOf(id);
    const at = this.probe(id, hash);
    const found = this.index[at]!;
    if (found !== 0) return found - 1;
    const n = this.count++;
    this.ends.set(n + 1, this.text.put(id));
    this.hashes.set(n, hash);
    this.index[at] = n + 1;
    if (this.count * 2 > this.index.length) this.rehash();
    return n;
  }

  /** The id numbered `n`. */
  idOf(n: number): string {
    return this.text.get(this.ends.get(n), this.ends.get(n + 1));
  }

  /** The index place that holds `id`, or the empty place where it would go. */
  private probe(id: string, hash: number): number {
    const mask = this.index.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.index[at]!;
      if (
        entry === 0 ||
        (this.hashes.get(entry - 1) === hash &&
          this.text.equals(this.ends.get(entry - 1), this.ends.get(entry), id))
      )
        return at;
    }
  }

  private rehash(): void {
    const old = this.index;
    this.index = new Int32Array(old.length * 2);
    const mask = this.index.length - 1;
    for (const entry of old) {
      if (entry === 0) continue;
      let at = this.hashes.get(entry - 1) & mask;
      while (this.index[at] !== 0) at = (at + 1) & mask;
      this.index[at] = entry;
    }
  }
}
