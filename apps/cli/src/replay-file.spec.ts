import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry, ReplayEngine, type ReplayOptions } from '@ranking/rating';
import { sizedValue } from '@ranking/testing';
import { annulledLadders } from './annulled-ladders.js';
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

/** An annulment of a player, its type spelled with a `\u` escape. */
const escapedAnnulment = (ladder: string, player: string): string =>
  JSON.stringify({
    id: `escaped-${ladder}`,
    type: 'player.annulled',
    ladder,
    player,
    since: '2026-11-01T00:00:00+08:00',
    annulledAt: '2026-12-10T00:00:00+08:00',
  }).replace('player.annulled', 'player\\u002eannulled');

/**
 * Generated events with a large share of bad ones, annulments (one spelled with an escape), and
 * lines the generator does not write.
 */
function hostileFile(seed: number): string {
  const lines: Buffer[] = [
    ...generateEvents({
      seed,
      events: 4000,
      badShare: 0.1,
      correctionShare: 0.03,
      annulmentShare: 0.005,
    }),
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
  // Values at the size limit and one byte over it (CONTRACT.md "Transport").
  const sized = (id: string, bytes: number, pad: 'ascii' | 'cjk') =>
    sizedValue(
      {
        id,
        type: 'game.finished',
        ladder: 'qq-gomoku',
        gameId: `g-${id}`,
        finishedAt: '2026-11-29T10:00:00.999999999999999999999+08:00',
        moves: 40,
        players: [
          { id: 'sized-ann', result: 'win' },
          { id: 'sized-bob', result: 'loss' },
        ],
      },
      bytes,
      pad,
    );
  at(700, sized('fits-a', 65_536, 'ascii'), sized('fits-c', 65_536, 'cjk'));
  at(710, sized('over-a', 65_537, 'ascii'), sized('over-c', 65_537, 'cjk'));
  at(720, Buffer.alloc(70_000, 0x20), Buffer.alloc(65_537, 0xff));
  // Spelled with an escape, near the end (seed 3 annuls xinbo-go nowhere else): a scan that
  // missed it would leave the ladder without its log, and the replay would fail.
  at(3900, escapedAnnulment('xinbo-go', 'go0'));
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
  keepLogs: ReplayOptions['keepLogs'] = 'all',
): Promise<Replayed> {
  const engine = new ReplayEngine(ladderRegistry(), { simulate, keepLogs });
  let bytes = 0;
  const lines = await replay(engine, (b) => (bytes = b));
  engine.finish(simulate ? UNTIL : null);
  return { lines, bytes, output: [...engine.render()].join('') };
}

describe('replayFile (a worker parses, this thread folds)', () => {
  it.each([false, true])(
    'folds hostile files, annulments included, exactly as the single-threaded replay (simulate: %s), at any batch size, keeping the logs of the ladders that the file annuls',
    async (simulate) => {
      for (const seed of simulate ? [3] : [4]) {
        const file = hostileFile(seed);
        // The reference keeps every ladder's log; the pipelined replays those the scan names.
        const reference = await replayed(file, simulate, (engine, onBytes) =>
          replayFileInline(engine, file, onBytes),
        );
        const annulled = await annulledLadders(file);
        expect(annulled.has('xinbo-go')).toBe(true);
        expect(reference.bytes).toBe(statSync(file).size);
        const { rejected } = JSON.parse(reference.output) as {
          rejected: { id: string | null; reason: string }[];
        };
        // The values at the limit are read (those over it are judged as inline: below).
        expect(rejected.map((r) => r.id)).not.toEqual(expect.arrayContaining(['fits-a']));
        expect(rejected.map((r) => r.id)).not.toEqual(expect.arrayContaining(['fits-c']));
        for (const options of [
          {},
          { batchLines: 1, credits: 2, workers: 2 },
          { batchLines: 7, credits: 3, workers: 3 },
        ]) {
          const pipelined = await replayed(
            file,
            simulate,
            (engine, onBytes) => replayFile(engine, file, onBytes, { worker, ...options }),
            annulled,
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

  it('names the ladders that a file annuls, whatever the chunk size, and no other', async () => {
    const annulment = (ladder: string) =>
      JSON.stringify({
        id: `a-${ladder}`,
        type: 'player.annulled',
        ladder,
        player: 'ann',
        since: '2026-11-01T00:00:00+08:00',
        annulledAt: '2026-12-01T00:00:00+08:00',
      });
    const file = fileOf(
      [
        '{"id":"g","type":"game.finished","ladder":"qq-gomoku","reason":"player.annulled"}',
        annulment('igame-gomoku'),
        'player.annulled and not JSON',
        `{"x":"\\u0041",${'"pad":1,'.repeat(50)}"y":2}`,
        escapedAnnulment('xinbo-go', 'ann'),
        '{"type":"player.annulled","ladder":7}',
        `  ${annulment('qq-blokus')}\r`,
        annulment('qq-fifty-k'),
      ].join('\n'),
    );
    for (const chunk of [1, 7, 64, 1 << 20])
      expect([...(await annulledLadders(file, chunk))].sort()).toEqual([
        'igame-gomoku',
        'qq-blokus',
        'qq-fifty-k',
        'xinbo-go',
      ]);
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
