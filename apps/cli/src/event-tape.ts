// The compact form in which the parse worker hands the folding thread the events it parsed
// (ADR 26): each value JSON.parse gave the worker, written to typed arrays that are transferred,
// and rebuilt on the folding thread without parsing text again. The value rebuilt has the same
// keys in the same order and the same strings and numbers as JSON.parse's, so that everything
// downstream (the fold, the kept log's JSON.stringify) sees no difference.

/** One entry of the tape: what kind of value comes next. */
const enum Tag {
  Null,
  False,
  True,
  /** A 32-bit integer, in `ints`. */
  Int,
  /** Any other number, in `numbers`. */
  Number,
  /** A string of the worker's dictionary: its index in `ints`. */
  Known,
  /** A string of this batch's text: its start and end in `ints`. */
  Inline,
  /** An array: its length in `ints`, then its elements. */
  Array,
  /** An object of a known key list (a shape): the shape in `ints`, then the values in order. */
  Shaped,
  /** An object past the shapes' cap: its number of keys in `ints`, then each key and value. */
  Keyed,
}

/**
 * Values a field (a key name) may have in the dictionary: a field with more (ids, instants,
 * player ids) is written inline from then on, since looking its values up in a large map costs
 * the worker more than the folding thread saves. The dictionary and the shapes are capped too,
 * so that a file of ever new strings or key lists costs speed only.
 */
const VALUES_A_FIELD = 64;
const MAX_KNOWN_STRINGS = 1 << 16;
const MAX_SHAPES = 1 << 12;
/** Key names remembered (the schema lets an event carry keys of its own); the rest share one. */
const MAX_FIELDS = 1 << 12;
/** Shapes remembered under one field (the objects of `players`, of `context`…), tried first. */
const SHAPES_A_FIELD = 16;

/** A batch of values as the worker wrote them: transferred, not copied (see `tapeBuffers`). */
export interface Tape {
  readonly tags: Uint8Array<ArrayBuffer>;
  readonly ints: Int32Array<ArrayBuffer>;
  readonly numbers: Float64Array<ArrayBuffer>;
  /** The inline strings, end to end (one string: cloned as one copy). */
  readonly text: string;
  /** Strings added to the worker's dictionary with this batch, in index order. */
  readonly newStrings: readonly string[];
  /** Shapes (key lists) added with this batch, in index order. */
  readonly newShapes: readonly (readonly string[])[];
}

export const tapeBuffers = (tape: Tape): ArrayBuffer[] => [
  tape.tags.buffer,
  tape.ints.buffer,
  tape.numbers.buffer,
];

/**
 * V8 makes a slice of this many characters or more a view into the whole string: one kept by the
 * fold (an id in its seen set, a player id) would keep its batch's text alive.
 */
const SLICED_FROM = 13;

const isInt32 = (n: number): boolean => (n | 0) === n && !Object.is(n, -0);

/** What the worker remembers of a key name: its values in the dictionary, and the objects under it. */
class Field {
  /** Null once the field has had too many values: they are written inline. */
  values: Map<string, number> | null = new Map();
  last: string | null = null;
  lastIndex = 0;
  readonly shapes: Shape[] = [];
  lastShape: Shape | null = null;
}

interface Shape {
  readonly index: number;
  readonly keys: readonly string[];
  readonly fields: readonly Field[];
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  // Keys JSON.parse made are internalized: mostly a comparison of pointers.
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The worker's side: writes values, a batch at a time, remembering strings and shapes across batches. */
export class TapeWriter {
  private tags = new Uint8Array(1 << 14);
  private tagCount = 0;
  private ints = new Int32Array(1 << 14);
  private intCount = 0;
  private numbers = new Float64Array(64);
  private numberCount = 0;
  /** Appended to string by string (V8 ropes: cheaper than a join), flattened as it is cloned. */
  private text = '';
  private known = 0;
  private newStrings: string[] = [];
  private readonly fields = new Map<string, Field>();
  /** The events themselves, and the keys of objects past the shapes' cap. */
  private readonly top = new Field();
  private readonly keyNames = new Field();
  /** The keys past MAX_FIELDS: their values inline. */
  private readonly otherFields = Object.assign(new Field(), { values: null });
  private readonly shapes = new Map<string, Shape>();
  private newShapes: string[][] = [];

  /** Writes one event (a value JSON.parse gave). */
  write(event: unknown): void {
    this.value(event, this.top);
  }

  /** What was written since the last take, and a fresh start (the dictionaries stay). */
  take(): Tape {
    const text = this.text;
    const tape: Tape = {
      tags: this.tags.slice(0, this.tagCount),
      ints: this.ints.slice(0, this.intCount),
      numbers: this.numbers.slice(0, this.numberCount),
      text,
      newStrings: this.newStrings,
      newShapes: this.newShapes,
    };
    this.tagCount = 0;
    this.intCount = 0;
    this.numberCount = 0;
    this.text = '';
    this.newStrings = [];
    this.newShapes = [];
    return tape;
  }

  /** `field`: the key the value stands under (an array's elements stand under the array's). */
  private value(value: unknown, field: Field): void {
    switch (typeof value) {
      case 'string':
        return this.string(value, field);
      case 'number':
        if (isInt32(value)) {
          this.tag(Tag.Int);
          this.int(value);
        } else {
          this.tag(Tag.Number);
          if (this.numberCount === this.numbers.length) {
            const grown = new Float64Array(this.numbers.length * 2);
            grown.set(this.numbers);
            this.numbers = grown;
          }
          this.numbers[this.numberCount++] = value;
        }
        return;
      case 'boolean':
        return this.tag(value ? Tag.True : Tag.False);
      case 'object':
        if (value === null) return this.tag(Tag.Null);
        if (Array.isArray(value)) {
          this.tag(Tag.Array);
          this.int(value.length);
          for (const element of value as unknown[]) this.value(element, field);
          return;
        }
        return this.object(value as Record<string, unknown>, field);
      default:
        throw new Error(`not a JSON value: ${typeof value}`);
    }
  }

  private object(object: Record<string, unknown>, field: Field): void {
    const keys = Object.keys(object);
    let shape = field.lastShape;
    if (shape === null || !sameKeys(shape.keys, keys)) {
      shape = field.shapes.find((s) => sameKeys(s.keys, keys)) ?? this.shapeOf(keys);
      if (shape !== null && field.shapes.length < SHAPES_A_FIELD && !field.shapes.includes(shape))
        field.shapes.push(shape);
      field.lastShape = shape;
    }
    if (shape === null) {
      this.tag(Tag.Keyed);
      this.int(keys.length);
      for (const key of keys) {
        this.string(key, this.keyNames);
        this.value(object[key], this.fieldOf(key));
      }
    } else {
      this.tag(Tag.Shaped);
      this.int(shape.index);
      const { fields } = shape;
      for (let i = 0; i < keys.length; i++) this.value(object[keys[i]!], fields[i]!);
    }
  }

  /** The shape of these keys, new or not; null past the cap. */
  private shapeOf(keys: string[]): Shape | null {
    const name = keys.join('\u0000');
    let shape = this.shapes.get(name) ?? null;
    if (shape === null && this.shapes.size < MAX_SHAPES) {
      shape = { index: this.shapes.size, keys, fields: keys.map((k) => this.fieldOf(k)) };
      this.shapes.set(name, shape);
      this.newShapes.push(keys);
    }
    return shape;
  }

  private fieldOf(key: string): Field {
    let field = this.fields.get(key);
    if (field === undefined) {
      if (this.fields.size >= MAX_FIELDS) return this.otherFields;
      this.fields.set(key, (field = new Field()));
    }
    return field;
  }

  private string(value: string, field: Field): void {
    let index: number | undefined;
    if (value === field.last) index = field.lastIndex;
    else if (field.values !== null) {
      index = field.values.get(value);
      if (index === undefined) {
        if (field.values.size >= VALUES_A_FIELD) field.values = null;
        else if (this.known < MAX_KNOWN_STRINGS) {
          index = this.known++;
          field.values.set(value, index);
          this.newStrings.push(value);
        }
      }
      if (index !== undefined) {
        field.last = value;
        field.lastIndex = index;
      }
    }
    if (index === undefined) {
      this.tag(Tag.Inline);
      this.int(this.text.length);
      this.text += value;
      this.int(this.text.length);
    } else {
      this.tag(Tag.Known);
      this.int(index);
    }
  }

  private tag(tag: Tag): void {
    if (this.tagCount === this.tags.length) {
      const grown = new Uint8Array(this.tags.length * 2);
      grown.set(this.tags);
      this.tags = grown;
    }
    this.tags[this.tagCount++] = tag;
  }

  private int(n: number): void {
    if (this.intCount === this.ints.length) {
      const grown = new Int32Array(this.ints.length * 2);
      grown.set(this.ints);
      this.ints = grown;
    }
    this.ints[this.intCount++] = n;
  }
}

type Build = (reader: TapeReader) => Record<string, unknown>;

/**
 * A shape's builder: one object literal with the keys in order, so that V8 makes every object
 * of the shape alike, at the cost of a key store each. The keys are the file's data: written as
 * JSON string literals, and `__proto__` as a computed key, which defines a property as
 * JSON.parse does instead of setting the prototype.
 */
function builderOf(keys: readonly string[]): Build {
  const fields = keys.map((key) => {
    const literal = JSON.stringify(key);
    return `${key === '__proto__' ? `[${literal}]` : literal}: r.value()`;
  });
  // The one use of the Function constructor: its text is built from JSON string literals only.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('r', `return { ${fields.join(', ')} };`) as Build;
}

/**
 * The folding thread's side, one per worker: reads that worker's batches in the order it wrote
 * them, keeping the strings and shapes it sent.
 */
export class TapeReader {
  private readonly strings: string[] = [];
  private readonly shapes: (readonly string[])[] = [];
  private readonly builders: (Build | undefined)[] = [];
  private tags = new Uint8Array(0);
  private ints = new Int32Array(0);
  private numbers = new Float64Array(0);
  private text = '';
  /** `text` as UTF-16 code units, for the strings copied out of it. */
  private bytes = Buffer.alloc(0);
  private tagAt = 0;
  private intAt = 0;
  private numberAt = 0;

  /** Takes in the strings and shapes a batch adds: each batch as it arrives, in order. */
  receive(tape: Tape): void {
    for (const s of tape.newStrings) this.strings.push(s);
    for (const keys of tape.newShapes) this.shapes.push(keys);
  }

  /** Starts reading a batch received before (the previous one must have been read through). */
  start(tape: Tape): void {
    this.tags = tape.tags;
    this.ints = tape.ints;
    this.numbers = tape.numbers;
    this.text = tape.text;
    // UTF-16 whatever the text holds: telling Latin-1 text apart would cost the worker a scan.
    this.bytes = Buffer.from(tape.text, 'utf16le');
    this.tagAt = 0;
    this.intAt = 0;
    this.numberAt = 0;
  }

  /** Whether the batch has been read through. */
  get done(): boolean {
    return this.tagAt >= this.tags.length;
  }

  /** The next value. */
  value(): unknown {
    switch (this.tags[this.tagAt++] as Tag) {
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Int:
        return this.ints[this.intAt++];
      case Tag.Number:
        return this.numbers[this.numberAt++];
      case Tag.Known:
        return this.strings[this.ints[this.intAt++]!];
      case Tag.Inline: {
        const start = this.ints[this.intAt++]!;
        const end = this.ints[this.intAt++]!;
        // A short slice is a copy already; a longer one is decoded anew (not a view: see SLICED_FROM).
        if (end - start < SLICED_FROM) return this.text.slice(start, end);
        return this.bytes.toString('utf16le', 2 * start, 2 * end);
      }
      case Tag.Array: {
        const array: unknown[] = [];
        for (let n = this.ints[this.intAt++]!; n > 0; n--) array.push(this.value());
        return array;
      }
      case Tag.Shaped: {
        const shape = this.ints[this.intAt++]!;
        const build = (this.builders[shape] ??= builderOf(this.shapes[shape]!));
        return build(this);
      }
      case Tag.Keyed: {
        const object: Record<string, unknown> = {};
        for (let n = this.ints[this.intAt++]!; n > 0; n--) {
          const key = this.value() as string;
          Object.defineProperty(object, key, {
            value: this.value(),
            writable: true,
            enumerable: true,
            configurable: true,
          });
        }
        return object;
      }
      default:
        throw new Error('the parse worker sent a tape this thread cannot read');
    }
  }
}
