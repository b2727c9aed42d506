import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateEvents } from '@ranking/generator';
import { INLINE_PAYLOADS } from '@ranking/persistence';
import { OffThreadPayloads } from './off-thread-payloads.js';

// A rebuild, a what-if and a dry run read the stored log through a worker that parses it while
// the fold runs: what they fold must be exactly what JSON.parse gives on the reading thread
// (keys in order, the same strings and numbers), batch by batch, and a worker that fails must
// fail the read, never leave it waiting. Jest runs this file from source; the worker runs built.

const BUILT_WORKER = join(process.cwd(), 'dist/apps/cli/src/payload-parse-worker.js');
const worker = pathToFileURL(BUILT_WORKER);

beforeAll(() => {
  if (!existsSync(BUILT_WORKER))
    throw new Error('run `npm run build` first: the worker runs built');
});

/** Batches as a COPY hands them over: one at a time, each after a turn of the event loop. */
async function* texts(batches: readonly string[]): AsyncGenerator<string> {
  for (const text of batches) yield await Promise.resolve(text);
}

async function all<T>(batches: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(b);
  return out;
}

/** Values with their key order made visible. */
const ordered = (value: unknown): string => JSON.stringify(value);

/** The generator's events (all kinds, bad ones included), as batches of payload lines. */
function storedBatches(events: number, perBatch: number): string[] {
  const lines = [...generateEvents({ seed: 11, events, annulmentShare: 0.001 })].filter((line) => {
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  });
  const batches: string[] = [];
  for (let i = 0; i < lines.length; i += perBatch)
    batches.push(lines.slice(i, i + perBatch).join('\n') + '\n');
  return batches;
}

describe('OffThreadPayloads', () => {
  let parser: OffThreadPayloads;
  beforeEach(() => (parser = new OffThreadPayloads(worker)));
  afterEach(() => parser.close());

  it('Given stored payloads, When read through the worker, Then each batch is what JSON.parse gives, keys in order', async () => {
    const batches = storedBatches(20_000, 700);
    const expected = await all(INLINE_PAYLOADS.events(texts(batches)));
    const got = await all(parser.events(texts(batches)));
    expect(got.map((b) => b.length)).toEqual(expected.map((b) => b.length));
    expect(got.map(ordered)).toEqual(expected.map(ordered));
  });

  it('Given unusual JSON (escapes, astral characters, numbers of every kind, nesting), Then it comes back the same', async () => {
    const odd = [
      { id: 'a"\\\u0001é😀', n: [0, -0.5, 1e300, 2 ** 31, -(2 ** 31) - 1, 123456789.125], t: true },
      { nested: { deep: [[[null]], { '': 'empty key', 'ü-key': false }] }, long: 'x'.repeat(5000) },
      { id: 'a"\\\u0001é😀', same: 'again', players: [{ id: 'p', rating: 1500 }] },
    ];
    const text = odd.map((o) => JSON.stringify(o)).join('\n') + '\n';
    const [got] = await all(parser.events(texts([text, text])));
    expect(ordered(got)).toBe(ordered(odd));
  });

  it('Given several reads one after another, Then the worker serves each (its dictionaries carried over)', async () => {
    const batches = storedBatches(3_000, 250);
    const expected = (await all(INLINE_PAYLOADS.events(texts(batches)))).map(ordered);
    // The first read stops early: the answers still due are taken in all the same.
    for await (const _ of parser.events(texts(batches))) break;
    expect((await all(parser.events(texts(batches)))).map(ordered)).toEqual(expected);
    expect((await all(parser.events(texts(batches)))).map(ordered)).toEqual(expected);
  });

  it('Given a payload that is not JSON, Then the read fails with the parse error, and nothing hangs', async () => {
    const good = JSON.stringify({ id: 'g' }) + '\n';
    await expect(all(parser.events(texts([good, '{"id": \n', good])))).rejects.toThrow(/JSON/);
    // The worker is gone: a later read fails at once, not waiting for it.
    await expect(all(parser.events(texts([good])))).rejects.toThrow();
  });
});
