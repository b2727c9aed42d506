import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateEvents } from '@ranking/generator';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';

const run = promisify(execFile);
const ranking = (...args: string[]) =>
  run(process.execPath, ['bin/ranking.js', ...args], { maxBuffer: 1 << 26 });

/** The built `ranking` CLI, end to end on files (no services needed, but the build is). */
describe('ranking CLI', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ranking-cli-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('generate: the same seed writes the same file, another seed another one', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, `${n}.ndjson`));
    await ranking('generate', '--seed', '5', '--events', '3000', '--out', a!);
    await ranking('generate', '--seed', '5', '--events', '3000', '--out', b!);
    await ranking('generate', '--seed', '6', '--events', '3000', '--out', c!);
    const [fa, fb, fc] = await Promise.all([a!, b!, c!].map((f) => readFile(f, 'utf8')));
    expect(fa).toBe(fb);
    expect(fa).not.toBe(fc);
    expect(fa!.trimEnd().split('\n')).toHaveLength(3000);
  });

  it.each([[[]], [['--simulate', '--until', '2027-01-01T06:00:00+08:00']]])(
    'replay %j writes exactly what the in-process fold renders, bad lines listed, never crashing',
    async (flags) => {
      const events = join(dir, 'events.ndjson');
      const lines = [
        ...generateEvents({ seed: 11, events: 4000, badShare: 0.05, correctionShare: 0.02 }),
      ];
      // Blank lines and garbage the generator does not make: all must be survived.
      lines.splice(10, 0, '', '   ', '\u0000\u0001', '{"id": NaN}', '[]', '"just a string"');
      await writeFile(events, `${lines.join('\n')}\n`);
      const out = join(dir, 'out.json');
      const { stderr } = await ranking('replay', '--events', events, '--out', out, ...flags);
      expect(stderr).toMatch(/replayed \d+ lines/);

      const simulate = flags.length > 0;
      const engine = new ReplayEngine(ladderRegistry(), { simulate });
      for (const line of lines) engine.ingestLine(line);
      engine.finish(simulate ? Date.parse('2027-01-01T06:00:00+08:00') : null);
      const written = await readFile(out, 'utf8');
      expect(written).toBe([...engine.render()].join(''));

      const result = JSON.parse(written) as {
        ladders: Record<string, unknown>;
        rejected: { id: string | null; reason: string }[];
      };
      expect(Object.keys(result.ladders).sort()).toEqual([
        'igame-gomoku',
        'igame-gomoku-casual',
        'qq-blokus',
        'qq-fifty-k',
        'qq-gomoku',
        'qq-xiangqi',
        'xinbo-go',
      ]);
      expect(result.rejected.slice(0, 4)).toEqual([
        { id: null, reason: 'invalid-json' },
        { id: null, reason: 'invalid-json' },
        { id: null, reason: 'invalid-event' },
        { id: null, reason: 'invalid-event' },
      ]);
      const reasons = new Set(result.rejected.map((r) => r.reason));
      for (const code of [
        'invalid-json',
        'invalid-event',
        'unknown-ladder',
        'wrong-player-count',
        'duplicate-player',
        'inconsistent-result',
        'unknown-game',
      ]) {
        expect(reasons).toContain(code);
      }
    },
  );

  it('refuses a bad flag with a clear message and a non-zero exit', async () => {
    const events = join(dir, 'one.ndjson');
    await writeFile(events, '\n');
    await expect(
      ranking(
        'replay',
        '--events',
        events,
        '--out',
        join(dir, 'x.json'),
        '--simulate',
        '--until',
        '2027-01-01T00:00:00',
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining(
        '--until 2027-01-01T00:00:00: must be an RFC 3339 instant with an offset',
      ),
    });
    await expect(
      ranking('replay', '--events', join(dir, 'missing.ndjson'), '--out', join(dir, 'x.json')),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('missing.ndjson'),
    });
  });

  it('stops with one line naming a badly configured variable', async () => {
    await expect(
      run(process.execPath, ['bin/ranking.js', 'setup'], {
        env: { ...process.env, DATABASE_URL: 'mysql://x' },
      }),
    ).rejects.toMatchObject({
      stderr: 'ranking: DATABASE_URL="mysql://x": must be a postgres:// URL\n',
    });
  });
});
