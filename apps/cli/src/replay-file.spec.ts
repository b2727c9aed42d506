import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { parsedLines } from './parsed-lines.js';
import { replayFile, replayFileInline } from './replay-file.js';

// `ranking replay` parses in a worker thread and folds on its own: whatever the file holds, it
// must fold exactly what the single-threaded replay folds, and a worker that fails must fail
// the replay, never leave it waiting. Jest runs this file from source; the worker runs built.

const BUILT_WORKER = join(process.cwd(), 'dist/apps/cli/src/parse-worker.js');
const worker = pathToFileURL(BUILT_WORKER);
const UNTIL = Date.parse('2027-01-01T06:00:00+08:00');

let dir: string;
beforeAll(() => {
  if (!existsSync(BUILT_WORKER))
    throw new Error('run `npm run build` first: the worker runs built');
  dir = mkdtempSync(join(tmpdir(), 'replay-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function fileOf(content: Buffer | string): string {
  const file = join(dir, `${++files}.ndjson`);
  writeFileSync(file, content);
  return file;
}

/** Generated events with a large share of bad ones, and lines the generator does not write. */
function hostileFile(seed: number): string {
  const lines: Buffer[] = [
    ...generateEvents({ seed, events: 4000, badShare: 0.1, correctionShare: 0.03 }),
  ].map((line) => Buffer.from(line));
  const at = (i: number, ...extra: (string | Buffer)[]) =>
    lines.splice(i, 0, ...extra.map((e) => (typeof e === 'string' ? Buffer.from(e) : e)));
  at(3, '', '   ', '\r', '\t \r');
  at(50, Buffer.from([0x7b, 0xe9, 0xff, 0x7d]), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  at(
    100,
    '{"id": NaN}',
    '[]',
    '"just a string"',
    '\u0000\u0001',
    `${'['.repeat(40)}${']'.repeat(40)}`,
  );
  at(200, lines[150]!, lines[151]!, lines[150]!); // repeated ids
  at(300, Buffer.concat([lines[300]!, Buffer.from('\r')])); // a CRLF line
  at(400, '{"id":"x-1","type":"game.finished","ladder":"no-such-ladder"}');
  at(600, `{"id":"lone-\\ud800","type":"player.annulled"}`, ' {"id":1} ');
  // No line feed after the last line.
  return fileOf(
    Buffer.concat(lines.flatMap((line, i) => (i === 0 ? [line] : [Buffer.from('\n'), line]))),
  );
}

interface Replayed {
  lines: number;
  bytes: number;
  output: string;
}

async function replayed(
  file: string,
  simulate: boolean,
  replay: (engine: ReplayEngine, onBytes: (bytes: number) => void) => Promise<number>,
): Promise<Replayed> {
  const engine = new ReplayEngine(ladderRegistry(), { simulate });
  let bytes = 0;
  const lines = await replay(engine, (b) => (bytes = b));
  engine.finish(simulate ? UNTIL : null);
  return { lines, bytes, output: [...engine.render()].join('') };
}

describe('replayFile (a worker parses, this thread folds)', () => {
  it.each([false, true])(
    'folds hostile files exactly as the single-threaded replay (simulate: %s), at any batch size',
    async (simulate) => {
      for (const seed of simulate ? [3] : [4]) {
        const file = hostileFile(seed);
        const reference = await replayed(file, simulate, (engine, onBytes) =>
          replayFileInline(engine, file, onBytes),
        );
        expect(reference.bytes).toBe(statSync(file).size);
        expect(JSON.parse(reference.output)).toMatchObject({ rejected: expect.any(Array) });
        for (const options of [
          {},
          { batchLines: 1, credits: 2, workers: 2 },
          { batchLines: 7, credits: 3, workers: 3 },
        ]) {
          const pipelined = await replayed(file, simulate, (engine, onBytes) =>
            replayFile(engine, file, onBytes, { worker, ...options }),
          );
          expect(pipelined).toEqual(reference);
        }
      }
    },
  );

  it('folds the line-ending cases as the single-threaded replay: blank, CRLF, no final line feed, empty', async () => {
    const game = (id: string) =>
      JSON.stringify({
        id,
        type: 'game.finished',
        ladder: 'qq-gomoku',
        gameId: `g-${id}`,
        finishedAt: '2026-11-29T10:00:00+08:00',
        moves: 40,
        players: [
          { id: 'ann', result: 'win' },
          { id: 'bob', result: 'loss' },
        ],
      });
    for (const content of [
      '',
      '\n',
      '\r\n\r\n',
      `${game('a')}\r\n${game('b')}\r\n`,
      `${game('a')}\n\n  \n${game('b')}`,
      `${game('a')}\n${game('a')}\n${game('c')}\n`,
      `\uFEFF${game('a')}\n${game('b')}\r`,
    ]) {
      const file = fileOf(content);
      const reference = await replayed(file, false, (engine) => replayFileInline(engine, file));
      // One line a batch, two workers: every line ends a batch and the next is the other's.
      const pipelined = await replayed(file, false, (engine) =>
        replayFile(engine, file, undefined, { worker, batchLines: 1, credits: 2, workers: 2 }),
      );
      expect(pipelined).toEqual(reference);
    }
  });

  it('fails with the reading error when the worker cannot read the file', async () => {
    const engine = new ReplayEngine(ladderRegistry());
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    await expect(replayFile(engine, folder, undefined, { worker })).rejects.toThrow(/EISDIR/);
    await expect(replayFile(engine, join(dir, 'missing'), undefined, { worker })).rejects.toThrow(
      /ENOENT: no such file or directory/,
    );
  });

  it('fails, without waiting, when the worker throws or stops before the end', async () => {
    const file = hostileFile(5);
    const thrower = join(dir, 'throws.mjs');
    writeFileSync(thrower, "throw new Error('the parser broke');\n");
    const quitter = join(dir, 'quits.mjs');
    writeFileSync(quitter, 'process.exit(3);\n');
    const engine = new ReplayEngine(ladderRegistry());
    await expect(
      replayFile(engine, file, undefined, { worker: pathToFileURL(thrower) }),
    ).rejects.toThrow('the parser broke');
    await expect(
      replayFile(engine, file, undefined, { worker: pathToFileURL(quitter) }),
    ).rejects.toThrow(`the parse worker of ${file} stopped (exit code 3) before the end`);
  });

  it('stops its worker when the fold stops early', async () => {
    const file = hostileFile(6);
    const batches = parsedLines(file, { worker, batchLines: 10, credits: 2 });
    let lines = 0;
    for await (const batch of batches) {
      lines += batch.lines;
      break;
    }
    expect(lines).toBe(10);
  });
});
