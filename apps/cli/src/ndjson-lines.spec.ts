import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBlankLine, parseEvent } from '@ranking/contracts';
import { type IngestResult, ladderRegistry, ReplayEngine } from '@ranking/rating';
import { sizedValue } from '@ranking/testing';
import fc from 'fast-check';
import { ndjsonLines } from './ndjson-lines.js';

// The offline replay reads files: lines end at \n only, stay bytes until the parser decodes
// them (so a line that is not UTF-8 is invalid-json), and a blank line is one of spaces, tabs
// and carriage returns. It must judge every line as parseEvent judges the line's bytes.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ndjson-lines-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function fileOf(content: Buffer): string {
  const file = join(dir, `${++files}.ndjson`);
  writeFileSync(file, content);
  return file;
}

async function read(file: string, chunkBytes?: number): Promise<Buffer[]> {
  const lines: Buffer[] = [];
  for await (const line of ndjsonLines(file, undefined, chunkBytes)) lines.push(Buffer.from(line));
  return lines;
}

/** The reference split: at every \n, no line after a final \n. */
function splitAtLineFeeds(content: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = content.indexOf(10); end >= 0; end = content.indexOf(10, start)) {
    lines.push(content.subarray(start, end));
    start = end + 1;
  }
  if (start < content.length) lines.push(content.subarray(start));
  return lines;
}

const game = (id: string, extra: Record<string, unknown> = {}): string =>
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
    ...extra,
  });

describe('ndjsonLines', () => {
  it('ends lines at \\n only: a bare \\r and the \\r of \\r\\n stay in the line', async () => {
    const content = Buffer.from('a\rb\nc\r\n\r\n\nlast');
    expect((await read(fileOf(content))).map(String)).toEqual(['a\rb', 'c\r', '\r', '', 'last']);
  });

  it('yields no line after a final \\n, and nothing for an empty file', async () => {
    expect((await read(fileOf(Buffer.from('a\nb\n')))).map(String)).toEqual(['a', 'b']);
    expect(await read(fileOf(Buffer.alloc(0)))).toEqual([]);
  });

  it('keeps the bytes as they are, UTF-8 or not', async () => {
    const content = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x0a, 0xe9, 0xff, 0x0a, 0xe6, 0xa3]);
    expect(await read(fileOf(content))).toEqual(splitAtLineFeeds(content));
  });

  it('splits as the reference does at any chunk size, lines across chunks included', async () => {
    const byte = fc.constantFrom(0x0a, 0x0d, 0x20, 0x7b, 0xe6, 0xa3, 0x80);
    await fc.assert(
      fc.asyncProperty(
        fc
          .uint8Array({ maxLength: 200 })
          .chain((noise) => fc.tuple(fc.constant(noise), fc.array(byte, { maxLength: 60 }))),
        fc.integer({ min: 1, max: 16 }),
        async ([noise, structure], chunkBytes) => {
          const content = Buffer.from([...noise, ...structure]);
          expect(await read(fileOf(content), chunkBytes)).toEqual(splitAtLineFeeds(content));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a line longer than a chunk', async () => {
    const long = game('long', { note: 'x'.repeat(3 << 20) });
    const lines = await read(fileOf(Buffer.from(`${game('a')}\n${long}\n${game('b')}`)));
    expect(lines.map(String)).toEqual([game('a'), long, game('b')]);
  });

  it('reports the bytes read as it goes', async () => {
    const content = Buffer.from(`${game('a')}\n`.repeat(100));
    const seen: number[] = [];
    for await (const _line of ndjsonLines(fileOf(content), (bytes) => seen.push(bytes), 1000));
    expect(seen.at(-1)).toBe(content.length);
    expect(seen.length).toBeGreaterThan(1);
  });
});

describe('the offline replay of a file judges each line as parseEvent judges its bytes', () => {
  /** The text's UTF-8 bytes with `bytes` in place of the first X. */
  const withBytes = (text: string, bytes: readonly number[]): Buffer => {
    const at = text.indexOf('X');
    return Buffer.concat([
      Buffer.from(text.slice(0, at)),
      Buffer.from(bytes),
      Buffer.from(text.slice(at + 1)),
    ]);
  };
  /** A game `levels` deep: the event object is one level, its extra field's arrays the rest. */
  const deep = (id: string, levels: number): Buffer =>
    Buffer.from(game(id).replace(/}$/, `,"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`));
  const annulled = JSON.stringify({
    id: 'an',
    type: 'player.annulled',
    ladder: 'qq-gomoku',
    player: 'ann',
    since: '2026-11-01T00:00:00Z',
    annulledAt: '2026-12-01T00:00:00Z',
  });
  const lines: [string, Buffer][] = [
    ['a valid game', Buffer.from(game('ok-1'))],
    ['an empty line', Buffer.from('')],
    ['spaces, tabs and carriage returns', Buffer.from(' \t\r ')],
    ['a valid game ending in \\r (from \\r\\n)', Buffer.from(`${game('ok-2')}\r`)],
    ['U+3000 alone', Buffer.from('\u3000')],
    ['U+00A0 alone', Buffer.from('\u00a0')],
    ['a BOM alone', Buffer.from('\ufeff')],
    ['a vertical tab and a form feed', Buffer.from('\v\f')],
    ['a game after a BOM', Buffer.from(`\ufeff${game('bom')}`)],
    ['two games split by a bare \\r', Buffer.from(`${game('cr-1')}\r${game('cr-2')}`)],
    ['a Latin-1 byte in an id', withBytes(game('cafX'), [0xe9])],
    ['a surrogate as three bytes', withBytes(game('s-X'), [0xed, 0xa0, 0x80])],
    ['a lone continuation byte', withBytes(game('c-X'), [0x80])],
    ['a raw NUL in a string', withBytes(game('nul-X'), [0x00])],
    ['an escaped NUL in the id', Buffer.from(game('nul\u0000'))],
    [
      'an escaped lone surrogate in a player id',
      Buffer.from(game('ls').replace('"bob"', '"\\ud800"')),
    ],
    ['a game nested 33 levels deep', deep('d33', 33)],
    ['a game nested 32 levels deep', deep('d32', 32)],
    ['a million [', Buffer.from('['.repeat(1_000_000))],
    ['player.annulled', Buffer.from(annulled)],
    ['lower-case t and z', Buffer.from(game('lower', { finishedAt: '2026-11-29t02:00:00z' }))],
    [
      'an instant with a space for T',
      Buffer.from(game('sp', { finishedAt: '2026-11-29 02:00:00Z' })),
    ],
    ['the year 9999', Buffer.from(game('y9999', { finishedAt: '9999-11-29T02:00:00Z' }))],
    ['an emoji and CJK in ids', Buffer.from(game('😀𠀀棋'))],
    // CONTRACT.md "Transport": over 65,536 bytes is invalid-event, decided before decoding.
    ['65,536 bytes of ASCII', Buffer.from(sizedValue(JSON.parse(game('fits-a')), 65_536, 'ascii'))],
    ['65,536 bytes of CJK', Buffer.from(sizedValue(JSON.parse(game('fits-c')), 65_536, 'cjk'))],
    ['65,537 bytes of ASCII', Buffer.from(sizedValue(JSON.parse(game('over-a')), 65_537, 'ascii'))],
    ['65,537 bytes of CJK', Buffer.from(sizedValue(JSON.parse(game('over-c')), 65_537, 'cjk'))],
    [
      '65,536 bytes and the \\r of \\r\\n',
      Buffer.from(`${sizedValue(JSON.parse(game('crlf')), 65_536, 'ascii')}\r`),
    ],
    ['65,537 bytes that are not UTF-8', Buffer.alloc(65_537, 0xff)],
    ['a blank line of 70,000 spaces', Buffer.alloc(70_000, 0x20)],
    ['a repeated id', Buffer.from(game('ok-1'))],
  ];

  it('with the same verdict and code, line by line', async () => {
    const content = Buffer.concat(lines.flatMap(([, bytes]) => [bytes, Buffer.from('\n')]));
    const file = fileOf(content);
    const engine = new ReplayEngine(ladderRegistry());
    const results: IngestResult[] = [];
    for await (const line of ndjsonLines(file, undefined, 4096))
      results.push(engine.ingestLine(line));
    expect(results).toHaveLength(lines.length);

    const verdicts = results.map((result, i) => {
      const [what, bytes] = lines[i]!;
      if (isBlankLine(bytes)) return [what, result.kind, 'blank'];
      const parsed = parseEvent(bytes);
      if (!parsed.ok) {
        expect(result).toMatchObject({
          kind: 'rejected',
          reason: parsed.rejection.code,
          detail: parsed.rejection.detail,
          id: parsed.id,
        });
        return [what, result.kind, parsed.rejection.code];
      }
      expect(result.kind).not.toBe('skipped');
      return [what, result.kind, 'parsed'];
    });
    expect(verdicts).toEqual([
      ['a valid game', 'accepted', 'parsed'],
      ['an empty line', 'skipped', 'blank'],
      ['spaces, tabs and carriage returns', 'skipped', 'blank'],
      ['a valid game ending in \\r (from \\r\\n)', 'accepted', 'parsed'],
      ['U+3000 alone', 'rejected', 'invalid-json'],
      ['U+00A0 alone', 'rejected', 'invalid-json'],
      ['a BOM alone', 'rejected', 'invalid-json'],
      ['a vertical tab and a form feed', 'rejected', 'invalid-json'],
      ['a game after a BOM', 'rejected', 'invalid-json'],
      ['two games split by a bare \\r', 'rejected', 'invalid-json'],
      ['a Latin-1 byte in an id', 'rejected', 'invalid-json'],
      ['a surrogate as three bytes', 'rejected', 'invalid-json'],
      ['a lone continuation byte', 'rejected', 'invalid-json'],
      ['a raw NUL in a string', 'rejected', 'invalid-json'],
      ['an escaped NUL in the id', 'rejected', 'invalid-event'],
      ['an escaped lone surrogate in a player id', 'rejected', 'invalid-event'],
      ['a game nested 33 levels deep', 'rejected', 'invalid-json'],
      ['a game nested 32 levels deep', 'accepted', 'parsed'],
      ['a million [', 'rejected', 'invalid-event'],
      ['player.annulled', 'accepted', 'parsed'],
      ['lower-case t and z', 'accepted', 'parsed'],
      ['an instant with a space for T', 'rejected', 'invalid-event'],
      ['the year 9999', 'rejected', 'invalid-event'],
      ['an emoji and CJK in ids', 'accepted', 'parsed'],
      ['65,536 bytes of ASCII', 'accepted', 'parsed'],
      ['65,536 bytes of CJK', 'accepted', 'parsed'],
      ['65,537 bytes of ASCII', 'rejected', 'invalid-event'],
      ['65,537 bytes of CJK', 'rejected', 'invalid-event'],
      ['65,536 bytes and the \\r of \\r\\n', 'rejected', 'invalid-event'],
      ['65,537 bytes that are not UTF-8', 'rejected', 'invalid-event'],
      ['a blank line of 70,000 spaces', 'skipped', 'blank'],
      ['a repeated id', 'duplicate', 'parsed'],
    ]);
  });
});
