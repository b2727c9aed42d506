import { parseEvent } from '@ranking/contracts';
import { generateEvents } from '@ranking/generator';
import { BUILT_IN_LADDERS } from '@ranking/rating';
import fc from 'fast-check';
import { Partitioners } from 'kafkajs';

/**
 * A seeded mix of ladder-event messages, built as raw bytes: a generated stream of valid events
 * (corrections, closes, the generator's own bad lines, repeats) with penalties, duplicates and
 * hostile messages woven in. Everything is drawn from one fast-check sample of the seed, so the
 * same seed gives the same bytes, keys and partitions.
 */

/** One message to produce. */
export interface FuzzMessage {
  /** Its place in the plan (produce order). */
  readonly index: number;
  /** What it is, for reports: `<kind>:<detail>`. */
  readonly kind: string;
  readonly key: Buffer;
  /** null: a message without a value (a tombstone). */
  readonly value: Buffer | null;
  /** The partition the producer's default partitioner gives its key. */
  readonly partition: number;
}

export interface FuzzPlan {
  readonly messages: readonly FuzzMessage[];
  /** Hostile messages left out because their id was taken on another partition (see `emit`). */
  readonly dropped: number;
}

/** The kinds of messages a plan mixes into the generated stream. */
export const FUZZ_KINDS = [
  'duplicate',
  'penalty',
  'field',
  'badid',
  'instant',
  'shaped',
  'json',
  'text',
  'nested',
  'dupkeys',
  'proto',
  'bytes',
  'empty',
  'null',
  'blank',
] as const;
export type FuzzKind = (typeof FUZZ_KINDS)[number];

/** Weights of each kind in a plan, against 'generated' (a line of the generated stream). */
const WEIGHTS: Record<FuzzKind | 'generated', number> = {
  generated: 90,
  duplicate: 10,
  penalty: 6,
  field: 32,
  badid: 4,
  instant: 10,
  shaped: 12,
  json: 6,
  text: 8,
  nested: 3,
  dupkeys: 6,
  proto: 8,
  bytes: 6,
  empty: 1,
  null: 1,
  blank: 1,
};

/** Generated lines first, so every ladder's first events (which start its clocks) are ordinary. */
const PROLOGUE = 200;

// ---------------------------------------------------------------------------------------------
// JSON text with exact control: raw tokens and objects with repeated or prototype-named keys.

/** JSON text written out verbatim (numbers like 1e400 or -0, nesting, broken tokens). */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object as an ordered list of entries: keys may repeat, `__proto__` is an ordinary key. */
export class Entries {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** JSON text of a value that may hold `Raw` and `Entries` (strings escaped as JSON.stringify does). */
export function render(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Entries)
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${render(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(render).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return render(new Entries(Object.entries(value)));
  return JSON.stringify(value) ?? 'null';
}

/** `depth` nested containers: arrays, or objects `{"a":{"a":…}}`. */
const nesting = (depth: number, objects: boolean): Raw =>
  objects
    ? new Raw(`${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`)
    : new Raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);

// ---------------------------------------------------------------------------------------------
// Hostile values.

/** A hostile value and what it is, for reports. */
interface Hostile {
  readonly label: string;
  readonly value: unknown;
}

const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
];
const SPECIAL_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
  'then',
];
const controlChar = fc.constantFrom(...CONTROL);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const specialName = fc.constantFrom(...SPECIAL_NAMES);
const shortText = fc.string({ maxLength: 6 });
const around = (inner: fc.Arbitrary<string>) =>
  fc.tuple(shortText, inner, shortText).map(([a, x, b]) => a + x + b);
const labelled = (label: string, arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<Hostile> =>
  arbitrary.map((value) => ({ label, value }));

const hostileString: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 5, arbitrary: labelled('control', around(controlChar)) },
  { weight: 2, arbitrary: labelled('nul', fc.constantFrom('\u0000', 'a\u0000', '\u0000b')) },
  { weight: 4, arbitrary: labelled('surrogate', around(loneSurrogate)) },
  {
    weight: 1,
    arbitrary: labelled(
      'unicode',
      around(
        fc.constantFrom(
          '\ud800\ud800',
          '\udc00\ud800',
          '\ud83d\ude00',
          '\ufffd',
          '\ufeff',
          '\u2028\u2029',
          '\u200b',
          'e\u0301',
          '\uffff',
          '\u{10ffff}',
        ),
      ),
    ),
  },
  { weight: 3, arbitrary: labelled('full-unicode', fc.string({ unit: 'binary', maxLength: 24 })) },
  {
    weight: 2,
    arbitrary: labelled(
      'unit-soup',
      fc.string({
        unit: fc.oneof(
          controlChar,
          loneSurrogate,
          fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        ),
        minLength: 1,
        maxLength: 12,
      }),
    ),
  },
  { weight: 3, arbitrary: labelled('special-name', specialName) },
  {
    weight: 2,
    arbitrary: labelled(
      'odd-string',
      fc.constantFrom(
        '',
        ' ',
        'null',
        'NaN',
        '-0',
        '1e400',
        '"',
        '\\',
        '\\u0000',
        '%00',
        "'; DROP TABLE event_store; --",
        '$1',
        'x'.repeat(128),
        'x'.repeat(129),
        'ø'.repeat(128),
        'ø'.repeat(129),
        '😀'.repeat(64),
        '😀'.repeat(129),
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: labelled(
      'huge-string',
      fc.integer({ min: 1_000, max: 60_000 }).map((n) => 'x'.repeat(n)),
    ),
  },
);

const hostileNumber: fc.Arbitrary<Hostile> = labelled(
  'number',
  fc
    .constantFrom(
      '1e308',
      '-1e308',
      '1e400',
      '-1e400',
      '5e-324',
      '-5e-324',
      '1e-400',
      '-0',
      '-0.0',
      '0.0',
      '1E2',
      '4.5',
      '2.5e1',
      '-1',
      '9007199254740993',
      '1e21',
      '100000000000000000000000000000',
      '0e0',
    )
    .map((t) => new Raw(t)),
);

/** Tokens that are not JSON, or strings JSON only allows escaped. */
const brokenToken: fc.Arbitrary<Hostile> = fc.oneof(
  labelled(
    'raw-control',
    fc
      .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 6 }), controlChar)
      .map(([a, c]) => new Raw(`"${a.replace(/["\\]/g, '')}${c}"`)),
  ),
  labelled(
    'token',
    fc
      .constantFrom(
        '"\\x41"',
        '"\\u12"',
        '"\\uD800"',
        '"\\udc00"',
        '"\\ud800\\udc00"',
        "'single'",
        '"unterminated',
        'NaN',
        'Infinity',
        '-Infinity',
        'undefined',
        '0x10',
        '01',
        '.5',
        '+1',
        '1.',
        '1e',
        '--1',
      )
      .map((t) => new Raw(t)),
  ),
);

const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 8, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: brokenToken },
  { weight: 2, arbitrary: labelled('json', fc.jsonValue({ maxDepth: 2 })) },
  {
    weight: 1,
    arbitrary: labelled(
      'nested',
      fc.tuple(fc.integer({ min: 28, max: 34 }), fc.boolean()).map(([d, o]) => nesting(d, o)),
    ),
  },
  {
    weight: 1,
    arbitrary: labelled(
      'proto-object',
      specialName.map((k) => new Entries([[k, { result: 'win', polluted: true }]])),
    ),
  },
  { weight: 1, arbitrary: labelled('constant', fc.constantFrom(null, true, false, [], {}, 0, 1)) },
);

const hostileInstant: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          '0001',
          '0000',
          '1969',
          '1999',
          '2000',
          '2098',
          '2099',
          '2100',
          '9999',
          '+002098',
          '10000',
        ),
        fc.constantFrom('01-05', '01-10', '02-29', '02-30', '12-31', '13-01', '00-10'),
        fc.constantFrom('T', 't', ' ', '_', ''),
        fc.constantFrom(
          '13:05:00',
          '00:00:00',
          '23:59:60',
          '24:00:00',
          '23:59:59',
          '13:05',
          '1:05:00',
        ),
        fc.constantFrom('', '', '.5', '.123456789', '.', ',5'),
        fc.constantFrom(
          'Z',
          'z',
          '+08:00',
          '+0800',
          '+08',
          '-00:00',
          '+24:00',
          '+14:00',
          '',
          ' +08:00',
        ),
      )
      .map(([y, d, s, t, f, o]) => `${y}-${d}${s}${t}${f}${o}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2098-01-10 13:05:00+08:00',
      '2098-01-10T13:05:00+0800',
      '1970-01-01T00:00:00Z',
      '',
      'now',
      '4071600000000',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  },
);

// ---------------------------------------------------------------------------------------------
// What a plan is drawn as: one spec a message, turned into bytes by `planMessages`.

type Spec =
  | { readonly t: 'generated' }
  | { readonly t: 'duplicate'; readonly pick: number }
  | { readonly t: 'penalty'; readonly pick: number; readonly points: number }
  | {
      readonly t: 'field';
      readonly pick: number;
      readonly path: number;
      readonly hostile: Hostile;
      /** Add a key of this name (to the object at `path`) instead of replacing a value. */
      readonly add: string | null;
    }
  /** A hostile id on an event the schema rejects: the id of a rejection, which is stored and listed. */
  | { readonly t: 'badid'; readonly pick: number; readonly id: Hostile; readonly spoil: number }
  | { readonly t: 'instant'; readonly pick: number; readonly field: number; readonly value: string }
  | { readonly t: 'shaped'; readonly shape: Shape }
  | { readonly t: 'json'; readonly value: unknown; readonly key: string }
  | {
      readonly t: 'text';
      readonly variant: 'string' | 'soup' | 'two-events' | 'padded' | 'truncated' | 'js';
      readonly text: string;
      readonly pick: number;
      readonly cut: number;
      readonly key: string;
    }
  | {
      readonly t: 'nested';
      readonly depth: number;
      readonly where: 'top' | 'field' | 'player';
      readonly objects: boolean;
      readonly pick: number;
      readonly key: string;
    }
  | {
      readonly t: 'dupkeys';
      readonly pick: number;
      readonly field: number;
      readonly hostile: Hostile;
      readonly ladder: number;
      readonly last: boolean;
    }
  | { readonly t: 'proto'; readonly pick: number; readonly variant: number; readonly name: string }
  | {
      readonly t: 'bytes';
      readonly pick: number;
      readonly variant:
        'id' | 'player' | 'note' | 'random' | 'utf16' | 'bom' | 'latin1' | 'overlong-nul';
      readonly sequence: readonly number[];
      readonly random: Uint8Array;
      readonly key: string;
    }
  | { readonly t: 'empty' | 'null'; readonly key: string }
  | { readonly t: 'blank'; readonly text: string; readonly key: string };

/** An event-shaped record of the ladders' own players and games, with odd but often valid values. */
interface Shape {
  readonly type: 'game.finished' | 'game.corrected' | 'player.penalized';
  readonly ladder: number;
  readonly id: number;
  readonly game: number;
  readonly moves: number;
  readonly players: readonly Record<string, unknown>[];
  readonly context: Record<string, unknown> | undefined;
  readonly void: boolean | undefined;
  readonly points: number;
}

const randomKey = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  type: fc.constantFrom('game.finished', 'game.finished', 'game.corrected', 'player.penalized'),
  ladder: fc.nat(),
  // A small pool of ids a ladder: repeats within the ladder (and its partition) only.
  id: fc.nat({ max: 40 }),
  game: fc.nat(),
  moves: fc.oneof(
    fc.integer({ min: 0, max: 300 }),
    fc.constantFrom(0, 1, 2, 9, 10, 100_000, 100_001),
  ),
  players: fc.array(
    fc.record(
      {
        p: fc.nat(),
        result: fc.constantFrom('win', 'loss', 'draw'),
        side: fc.constantFrom('black', 'white', 'red'),
        first: fc.boolean(),
        ip: fc.constantFrom('10.0.0.1', '10.0.0.2', '10.0.0.3'),
        disconnected: fc.boolean(),
        team: fc.constantFrom('red', 'blue'),
        seat: fc.integer({ min: 0, max: 3 }),
        remaining: fc.integer({ min: 0, max: 60 }),
        perfect: fc.boolean(),
        tablePoints: fc.integer({ min: 0, max: 40 }).map((x) => 5 * x),
        finishOrder: fc.constantFrom(1, 2, 3, 4, null),
        handPoints: fc.integer({ min: 0, max: 12 }).map((x) => 5 * x),
        captures: fc.integer({ min: 0, max: 6 }),
      },
      { requiredKeys: ['p'] },
    ),
    { maxLength: 5 },
  ),
  context: fc.option(
    fc.record(
      {
        kind: fc.constantFrom('territory', 'capture'),
        boardSize: fc.constantFrom(9, 13, 19),
        handicap: fc.integer({ min: 0, max: 9 }),
        teacher: fc.boolean(),
        tournament: fc.boolean(),
        captureTarget: fc.constantFrom(3, 5),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
  void: fc.option(fc.boolean(), { nil: undefined }),
  points: fc.constantFrom(-100, -30, -200, -0.5, -100_000, 0, 1),
});

const INVALID_UTF8: readonly (readonly number[])[] = [
  [0xff],
  [0xfe],
  [0x80],
  [0xbf],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
];

function specArb(kinds: ReadonlySet<FuzzKind>): fc.Arbitrary<Spec> {
  const pick = fc.nat();
  const byKind: Record<FuzzKind | 'generated', fc.Arbitrary<Spec>> = {
    generated: fc.constant({ t: 'generated' }),
    duplicate: fc.record({ t: fc.constant('duplicate' as const), pick }),
    penalty: fc.record({
      t: fc.constant('penalty' as const),
      pick,
      points: fc.constantFrom(-100, -30, -200, -1, -0.5, -99_999),
    }),
    field: fc.record({
      t: fc.constant('field' as const),
      pick,
      path: fc.nat(),
      hostile: hostileValue,
      add: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.oneof(specialName, fc.string({ unit: 'binary', maxLength: 8 })),
        },
      ),
    }),
    badid: fc.record({
      t: fc.constant('badid' as const),
      pick,
      id: fc.oneof(hostileString, hostileValue),
      spoil: fc.nat(),
    }),
    instant: fc.record({
      t: fc.constant('instant' as const),
      pick,
      field: fc.nat(),
      value: hostileInstant,
    }),
    shaped: fc.record({ t: fc.constant('shaped' as const), shape: shapeArb }),
    json: fc.record({ t: fc.constant('json' as const), value: fc.jsonValue(), key: randomKey }),
    text: fc.record({
      t: fc.constant('text' as const),
      variant: fc.constantFrom('string', 'soup', 'two-events', 'padded', 'truncated', 'js'),
      text: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({
          unit: fc.oneof(controlChar, loneSurrogate, fc.constantFrom('{', '}', '"', ':', ',', '[')),
          maxLength: 20,
        }),
      ),
      pick,
      cut: fc.nat(),
      key: randomKey,
    }),
    nested: fc.record({
      t: fc.constant('nested' as const),
      depth: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(31, 32, 33, 34) },
        { weight: 1, arbitrary: fc.constantFrom(100, 10_000) },
      ),
      where: fc.constantFrom('top', 'field', 'player'),
      objects: fc.boolean(),
      pick,
      key: randomKey,
    }),
    dupkeys: fc.record({
      t: fc.constant('dupkeys' as const),
      pick,
      field: fc.nat(),
      hostile: hostileValue,
      ladder: fc.nat(),
      last: fc.boolean(),
    }),
    proto: fc.record({
      t: fc.constant('proto' as const),
      pick,
      variant: fc.nat({ max: 9 }),
      name: specialName,
    }),
    bytes: fc.record({
      t: fc.constant('bytes' as const),
      pick,
      variant: fc.constantFrom(
        'id',
        'player',
        'note',
        'random',
        'utf16',
        'bom',
        'latin1',
        'overlong-nul',
      ),
      sequence: fc.constantFrom(...INVALID_UTF8),
      random: fc.uint8Array({ minLength: 1, maxLength: 64 }),
      key: randomKey,
    }),
    empty: fc.record({ t: fc.constant('empty' as const), key: randomKey }),
    null: fc.record({ t: fc.constant('null' as const), key: randomKey }),
    blank: fc.record({
      t: fc.constant('blank' as const),
      text: fc.constantFrom(' ', '\t', '\r\n', '\n', '  \t\r ', '\u00a0', '\ufeff', '\u2028'),
      key: randomKey,
    }),
  };
  const chosen = (['generated', ...FUZZ_KINDS] as const).filter(
    (k) => k === 'generated' || kinds.has(k),
  );
  return fc.oneof(...chosen.map((k) => ({ weight: WEIGHTS[k], arbitrary: byKind[k] })));
}

// ---------------------------------------------------------------------------------------------
// Turning specs into messages.

const defaultPartitioner = Partitioners.DefaultPartitioner();

/** The partition kafkajs's default partitioner (Java-compatible murmur2) gives a key: where the services' own messages of that key go. */
export function partitionOf(key: Buffer, partitions: number): number {
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 0,
    replicas: [0],
    isr: [0],
  }));
  return defaultPartitioner({
    topic: 'ladder-events',
    partitionMetadata,
    message: { key, value: null },
  });
}

type Json = Record<string, unknown>;

/** A valid event produced earlier, to derive hostile variants from. */
interface Base {
  readonly event: Json;
  readonly ladder: string;
}

const INSTANT_FIELDS = ['finishedAt', 'correctedAt', 'start', 'end', 'at'];
const MARK = 'QQ_BYTES_QQ';

function pathsOf(value: unknown, prefix: readonly (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push([...prefix, i], ...pathsOf(v, [...prefix, i])));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value))
      out.push([...prefix, k], ...pathsOf(v, [...prefix, k]));
  }
  return out;
}

function getAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const k of path) node = (node as Record<string | number, unknown>)[k];
  return node;
}

/** Replaces the value at a non-empty path. */
function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
}

/** The ladder a message names (its last `ladder` key, as JSON.parse reads it), if it names one. */
function namedLadder(value: Buffer | null): string | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const ladder = (parsed as Json).ladder;
      if (typeof ladder === 'string') return ladder;
    }
  } catch {
    // not JSON: no ladder
  }
  return null;
}

/**
 * The plan of one seed: `total` messages (fewer by `dropped`), each keyed by the ladder it names
 * or else by a random key, with the partition of that key.
 */
export function planMessages(options: {
  readonly seed: number;
  readonly total: number;
  readonly partitions: number;
  readonly kinds?: ReadonlySet<FuzzKind>;
}): FuzzPlan {
  const { seed, total, partitions } = options;
  const kinds = options.kinds ?? new Set(FUZZ_KINDS);
  const drawn = Math.max(0, total - PROLOGUE);
  const [sampled] = fc.sample(fc.array(specArb(kinds), { minLength: drawn, maxLength: drawn }), {
    seed,
    numRuns: 1,
  });
  const specs: Spec[] = [
    ...Array.from({ length: Math.min(total, PROLOGUE) }, (): Spec => ({ t: 'generated' })),
    ...(sampled ?? []),
  ];
  const lines = generateEvents({
    seed,
    events: specs.filter((s) => s.t === 'generated').length,
    closes: true,
    badShare: 0.04,
    correctionShare: 0.04,
    days: 20,
    // Far ahead, yet inside the contract's years: the maintenance service's real clock then has
    // nothing to close while the test runs, so all it publishes is disconnect penalties.
    start: '2098-01-05T00:00:00+08:00',
  })[Symbol.iterator]();

  const ladderIds = BUILT_IN_LADDERS.map((l) => l.id);
  const messages: FuzzMessage[] = [];
  const bases: Base[] = [];
  const known = new Map<string, { players: string[]; games: string[]; at: string }>();
  /** The partition of each id that passed the schema: an id may pass on one partition only. */
  const idPartition = new Map<string, number>();
  let dropped = 0;

  const fresh = (id: unknown) =>
    `${typeof id === 'string' ? id.slice(0, 100) : 'fz'}~${messages.length.toString(36)}`;

  /**
   * Adds a message. Ids are remembered across ladders, so an id that passes the schema on two
   * partitions would make the outcome depend on how the service interleaves partitions: such a
   * message is dropped (ids that fail the schema are never remembered and may repeat anywhere).
   */
  const emit = (kind: string, value: Buffer | null, fallbackKey: string | Buffer) => {
    const ladder = namedLadder(value);
    const key = ladder !== null ? Buffer.from(ladder, 'utf8') : Buffer.from(fallbackKey);
    const partition = partitionOf(key, partitions);
    const parsed = parseEvent(value ?? '');
    if (parsed.ok) {
      const owner = idPartition.get(parsed.event.id);
      if (owner !== undefined && owner !== partition) {
        dropped++;
        return;
      }
      idPartition.set(parsed.event.id, partition);
    }
    messages.push({ index: messages.length, kind, key, value, partition });
    return parsed;
  };

  const addBase = (text: string) => {
    const event = JSON.parse(text) as Json;
    const ladder = event.ladder as string;
    bases.push({ event, ladder });
    const k = known.get(ladder) ?? { players: [], games: [], at: '2098-01-05T00:00:00+08:00' };
    known.set(ladder, k);
    for (const f of INSTANT_FIELDS) if (typeof event[f] === 'string') k.at = event[f];
    if (event.type === 'game.finished') {
      k.games.push(event.gameId as string);
      for (const p of event.players as Json[])
        if (!k.players.includes(p.id as string)) k.players.push(p.id as string);
    }
  };

  const baseOf = (pick: number): Base | undefined =>
    bases.length === 0 ? undefined : bases[pick % bases.length];
  const gameBaseOf = (pick: number): Base | undefined => {
    const games = bases.filter((b) => Array.isArray(b.event.players));
    return games.length === 0 ? undefined : games[pick % games.length];
  };
  const clone = (base: Base): Json => {
    const event = structuredClone(base.event);
    event.id = fresh(event.id);
    return event;
  };
  const text = (value: unknown) => Buffer.from(render(value), 'utf8');
  /** A key of its own, for a generated line that names no ladder (the generator's broken JSON). */
  const ownKey = () => `k-${messages.length.toString(36)}`;

  for (const spec of specs) {
    switch (spec.t) {
      case 'generated': {
        const line = lines.next();
        if (line.done) break;
        if (emit('generated', Buffer.from(line.value, 'utf8'), ownKey())?.ok) addBase(line.value);
        break;
      }
      case 'duplicate': {
        const original = messages.length === 0 ? undefined : messages[spec.pick % messages.length];
        if (original) emit(`duplicate:${original.kind}`, original.value, original.key);
        break;
      }
      case 'penalty': {
        const base = gameBaseOf(spec.pick);
        if (!base) break;
        const players = base.event.players as Json[];
        const line = JSON.stringify({
          id: `pen-${messages.length.toString(36)}`,
          type: 'player.penalized',
          ladder: base.ladder,
          player: players[spec.pick % players.length]!.id,
          points: spec.points,
          reason: 'disconnects',
          at: base.event.finishedAt,
        });
        if (emit('penalty', Buffer.from(line, 'utf8'), ownKey())?.ok) addBase(line);
        break;
      }
      case 'field': {
        const base = baseOf(spec.pick);
        if (!base) break;
        const event = clone(base);
        let root: unknown = event;
        let where: string;
        if (spec.add === null) {
          const paths = pathsOf(event);
          const path = paths[spec.path % paths.length]!;
          setAt(event, path, spec.hostile.value);
          where = path.join('.');
        } else {
          const objects = [[], ...pathsOf(event)].filter((p) => {
            const node = getAt(event, p);
            return typeof node === 'object' && node !== null && !Array.isArray(node);
          });
          const path = objects[spec.path % objects.length]!;
          const added = new Entries([
            ...Object.entries(getAt(event, path) as Json),
            [spec.add, spec.hostile.value],
          ]);
          if (path.length === 0) root = added;
          else setAt(event, path, added);
          where = `${[...path, JSON.stringify(spec.add)].join('.')}+`;
        }
        emit(`field:${where}:${spec.hostile.label}`, text(root), base.ladder);
        break;
      }
      case 'badid': {
        const base = baseOf(spec.pick);
        if (!base) break;
        const event = structuredClone(base.event);
        event.id = spec.id.value;
        const spoiled = ['type', 'ladder', 'moves', 'players'][spec.spoil % 4]!;
        event[spoiled] = spoiled === 'moves' ? -1 : spoiled === 'players' ? [] : 'No Such';
        emit(`badid:${spoiled}:${spec.id.label}`, text(event), base.ladder);
        break;
      }
      case 'instant': {
        const base = baseOf(spec.pick);
        if (!base) break;
        const event = clone(base);
        const fields = INSTANT_FIELDS.filter((f) => f in event);
        const field = fields[spec.field % fields.length] ?? 'finishedAt';
        event[field] = spec.value;
        emit(`instant:${field}=${spec.value}`, text(event), base.ladder);
        break;
      }
      case 'shaped': {
        const s = spec.shape;
        const ladder = ladderIds[s.ladder % ladderIds.length]!;
        const k = known.get(ladder) ?? { players: [], games: [], at: '2098-01-05T00:00:00+08:00' };
        const playerId = (p: number) =>
          k.players.length > 0 ? k.players[p % k.players.length]! : `${ladder}-p${p % 10}`;
        const gameId =
          k.games.length > 0 ? k.games[s.game % k.games.length]! : `sh-g${s.game % 30}`;
        const players = s.players.map(({ p, ...rest }) => ({ id: playerId(p as number), ...rest }));
        const id = `sh-${ladder}-${s.id}`;
        const event =
          s.type === 'game.finished'
            ? {
                id,
                type: s.type,
                ladder,
                gameId: `sh-${s.game % 50}`,
                finishedAt: k.at,
                moves: s.moves,
                players,
                ...(s.context ? { context: s.context } : {}),
              }
            : s.type === 'game.corrected'
              ? {
                  id,
                  type: s.type,
                  ladder,
                  gameId,
                  correctedAt: k.at,
                  ...(s.void !== undefined ? { void: s.void } : {}),
                  ...(players.length > 0
                    ? { players: players.map((p) => ({ id: p.id, result: (p as Json).result })) }
                    : {}),
                  note: 'shaped',
                }
              : {
                  id,
                  type: s.type,
                  ladder,
                  player: playerId(s.game),
                  points: s.points,
                  reason: 'disconnects',
                  at: k.at,
                };
        emit(`shaped:${s.type}`, text(event), ladder);
        break;
      }
      case 'json':
        emit('json', Buffer.from(JSON.stringify(spec.value) ?? 'null', 'utf8'), spec.key);
        break;
      case 'text': {
        const base = baseOf(spec.pick);
        const other = baseOf(spec.cut);
        let value: string;
        switch (spec.variant) {
          case 'string':
          case 'soup':
            value = spec.text;
            break;
          case 'two-events':
            value = base && other ? `${render(clone(base))}\n${render(clone(other))}` : spec.text;
            break;
          case 'padded':
            value = base ? ` \t\r\n${render(clone(base))}\n ` : spec.text;
            break;
          case 'truncated': {
            const whole = base ? render(clone(base)) : spec.text;
            value = whole.slice(0, spec.cut % Math.max(1, whole.length));
            break;
          }
          case 'js':
            value = base ? `{id: 'x', type: 'game.finished', ladder: '${base.ladder}'}` : spec.text;
            break;
        }
        emit(`text:${spec.variant}`, Buffer.from(value, 'utf8'), spec.key);
        break;
      }
      case 'nested': {
        const base = spec.where === 'player' ? gameBaseOf(spec.pick) : baseOf(spec.pick);
        const kind = `nested:${spec.where}:${spec.depth}`;
        if (spec.where === 'top' || !base) {
          emit(kind, text(nesting(spec.depth, spec.objects)), spec.key);
        } else if (spec.where === 'field') {
          // The event is one level; its extra field brings the rest.
          const event = clone(base);
          emit(
            kind,
            text(
              new Entries([
                ...Object.entries(event),
                ['extra', nesting(spec.depth - 1, spec.objects)],
              ]),
            ),
            base.ladder,
          );
        } else {
          // Event, players, player: three levels; the player's extra field brings the rest.
          const event = clone(base);
          (event.players as Json[])[0]!.extra = nesting(spec.depth - 3, spec.objects);
          emit(kind, text(event), base.ladder);
        }
        break;
      }
      case 'dupkeys': {
        const base = baseOf(spec.pick);
        if (!base) break;
        const event = clone(base);
        const entries = Object.entries(event);
        const field = entries[spec.field % entries.length]![0];
        const repeated =
          field === 'ladder' && spec.hostile.label === 'constant'
            ? ladderIds[spec.ladder % ladderIds.length]
            : spec.hostile.value;
        const doubled: [string, unknown][] = spec.last
          ? [...entries, [field, repeated]]
          : [[field, repeated], ...entries];
        emit(
          `dupkeys:${field}:${spec.last ? 'last' : 'first'}:${spec.hostile.label}`,
          text(new Entries(doubled)),
          base.ladder,
        );
        break;
      }
      case 'proto': {
        const base = spec.variant >= 7 ? gameBaseOf(spec.pick) : baseOf(spec.pick);
        if (!base) break;
        const event = clone(base);
        const players = event.players as Json[] | undefined;
        const name = spec.name;
        let value: unknown = event;
        switch (spec.variant) {
          case 0:
            event.id = name;
            break;
          case 1:
            if (players) players[0]!.id = name;
            else event.player = name;
            break;
          case 2:
            if (players) {
              players[0]!.id = '__proto__';
              players[1]!.id = 'constructor';
            } else event.player = 'toString';
            break;
          case 3:
            value = new Entries([
              ...Object.entries(event),
              [name, { type: 'game.corrected', void: true }],
            ]);
            break;
          case 4:
            if (players)
              (players as unknown[])[0] = new Entries([
                ...Object.entries(players[0]!),
                [name, { result: 'win' }],
              ]);
            else value = new Entries([[name, {}], ...Object.entries(event)]);
            break;
          case 5:
            event.ladder = name.toLowerCase();
            break;
          case 6:
            event.gameId = name;
            break;
          case 7:
            value = {
              id: event.id,
              type: 'game.corrected',
              ladder: base.ladder,
              gameId: name,
              correctedAt: event.finishedAt,
              void: true,
            };
            break;
          case 8:
            event.context = new Entries([['__proto__', { kind: 'capture', captureTarget: 3 }]]);
            break;
          default:
            value = {
              id: event.id,
              type: 'player.penalized',
              ladder: base.ladder,
              player: name,
              points: -100,
              reason: 'disconnects',
              at: event.finishedAt,
            };
        }
        emit(`proto:${spec.variant}:${name}`, text(value), base.ladder);
        break;
      }
      case 'bytes': {
        const base = baseOf(spec.pick);
        const kind = `bytes:${spec.variant}`;
        if (!base || spec.variant === 'random') {
          emit(kind, Buffer.from(spec.random), spec.key);
          break;
        }
        const event = clone(base);
        const players = event.players as Json[] | undefined;
        const splice = (sequence: readonly number[]) => {
          const bytes = text(event);
          const at = bytes.indexOf(MARK);
          return Buffer.concat([
            bytes.subarray(0, at),
            Buffer.from(sequence),
            bytes.subarray(at + MARK.length),
          ]);
        };
        switch (spec.variant) {
          case 'id':
            event.id = `${event.id as string}${MARK}`;
            emit(kind, splice(spec.sequence), base.ladder);
            break;
          case 'player':
            if (players) players[0]!.id = `${players[0]!.id as string}${MARK}`;
            else event.id = `${event.id as string}${MARK}`;
            emit(kind, splice(spec.sequence), base.ladder);
            break;
          case 'note':
            event.note = `adjudicated ${MARK}`;
            emit(kind, splice(spec.sequence), base.ladder);
            break;
          case 'overlong-nul':
            event.id = `${event.id as string}${MARK}`;
            emit(kind, splice([0xc0, 0x80]), base.ladder);
            break;
          case 'utf16':
            emit(kind, Buffer.from(render(event), 'utf16le'), base.ladder);
            break;
          case 'bom':
            emit(kind, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text(event)]), base.ladder);
            break;
          case 'latin1':
            if (players) players[0]!.id = `Zoë${players[0]!.id as string}`;
            else event.id = `Zoë${event.id as string}`;
            emit(kind, Buffer.from(render(event), 'latin1'), base.ladder);
            break;
        }
        break;
      }
      case 'empty':
        emit('empty', Buffer.alloc(0), spec.key);
        break;
      case 'null':
        emit('null', null, spec.key);
        break;
      case 'blank':
        emit('blank', Buffer.from(spec.text, 'utf8'), spec.key);
        break;
    }
  }
  return { messages, dropped };
}
