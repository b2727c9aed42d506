/** Entries per chunk. */
const SHIFT = 16;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;
/** The first chunk starts this small (a fold restored for one batch keeps a handful of games). */
const FIRST = 256;

/**
 * Growing columns of numbers or values, kept in chunks that are allocated once and never
 * copied once full. A typed array that doubles copies everything it holds at each step, and
 * every 64 MB of typed-array memory allocated makes V8 run a full collection; a JavaScript
 * array that grows by `push` past a few thousand entries is reallocated in the large-object
 * space, which costs about a hundred nanoseconds an entry. Chunks allocate what the column
 * holds, once.
 */
abstract class Chunked<A extends { length: number; [i: number]: unknown }> {
  protected readonly chunks: A[] = [];

  protected abstract make(length: number): A;
  protected abstract copy(from: A, into: A): void;

  /** The chunk that holds entry `i`, made (or grown) when needed. */
  protected chunkFor(i: number): A {
    const c = i >>> SHIFT;
    let chunk = this.chunks[c];
    if (chunk === undefined) {
      chunk = this.make(c === 0 ? FIRST : CHUNK);
      this.chunks[c] = chunk;
    }
    if ((i & MASK) >= chunk.length) {
      let length = chunk.length * 4;
      while (length <= (i & MASK)) length *= 4;
      const grown = this.make(Math.min(CHUNK, length));
      this.copy(chunk, grown);
      chunk = grown;
      this.chunks[c] = chunk;
    }
    return chunk;
  }
}

/** Numbers in typed-array chunks of one kind (Float64Array for any number, Int32Array for small integers). */
class NumberColumn<A extends Float64Array | Int32Array> extends Chunked<A> {
  constructor(private readonly Kind: new (length: number) => A) {
    super();
  }
  protected make(length: number): A {
    return new this.Kind(length);
  }
  protected copy(from: A, into: A): void {
    into.set(from);
  }
  get(i: number): number {
    return this.chunks[i >>> SHIFT]![i & MASK]!;
  }
  set(i: number, value: number): void {
    const chunk = this.chunks[i >>> SHIFT];
    // The common case inline: the chunk is there and long enough.
    if (chunk !== undefined && (i & MASK) < chunk.length) chunk[i & MASK] = value;
    else this.chunkFor(i)[i & MASK] = value;
  }
}

export const float64Column = () => new NumberColumn(Float64Array);
export const int32Column = () => new NumberColumn(Int32Array);

/** Values of any kind (strings, by reference): chunks of plain arrays, made at their full length. */
export class ValueColumn<T> extends Chunked<T[]> {
  protected make(length: number): T[] {
    return new Array<T>(length);
  }
  protected copy(from: T[], into: T[]): void {
    for (let i = 0; i < from.length; i++) into[i] = from[i]!;
  }
  get(i: number): T {
    return this.chunks[i >>> SHIFT]![i & MASK]!;
  }
  set(i: number, value: T): void {
    const chunk = this.chunks[i >>> SHIFT];
    if (chunk !== undefined && (i & MASK) < chunk.length) chunk[i & MASK] = value;
    else this.chunkFor(i)[i & MASK] = value;
  }
}
