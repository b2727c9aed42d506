import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateEvents, trueStrengths } from '@ranking/generator';
import { ladderRegistry, ReplayEngine } from '@ranking/rating';
import { jsonLines } from '@ranking/testing';

const run = promisify(execFile);
const ranking = (...args: string[]) =>
  run(process.execPath, ['bin/ranking.js', ...args], {
    maxBuffer: 1 << 26,
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
/** The failure of a run that must fail: its exit code and output. */
const failure = async (running: Promise<unknown>) => {
  try {
    await running;
  } catch (error) {
    return error as { code: number; stdout: string; stderr: string };
  }
  throw new Error('the command succeeded');
};
/** A run under a terminal (script(1) gives it one): what a person sees, and the exit code. */
const atTerminal = async (...args: string[]) => {
  const command = [process.execPath, 'bin/ranking.js', ...args].join(' ');
  try {
    const { stdout } = await run('script', ['-qec', command, '/dev/null']);
    return { code: 0, screen: stdout.replace(/\r\n/g, '\n') };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, screen: e.stdout.replace(/\r\n/g, '\n') };
  }
};

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
      const { stdout, stderr } = await ranking(
        'replay',
        '--events',
        events,
        '--out',
        out,
        ...flags,
      );

      const simulate = flags.length > 0;
      const engine = new ReplayEngine(ladderRegistry(), { simulate });
      for (const line of lines) engine.ingestLine(line);
      engine.finish(simulate ? Date.parse('2027-01-01T06:00:00+08:00') : null);
      expect(stdout).toBe('');
      expect(jsonLines(stderr)).toMatchObject([
        {
          level: 'info',
          context: 'replay',
          message: expect.stringMatching(/^replayed \d+ lines/),
          eventsFile: events,
          out,
          rejected: engine.rejected.length,
          void: engine.voided.length,
        },
      ]);
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

  it('generate --strength-spread --truth: the file the generator draws from, and the true strength of every player in it', async () => {
    const [events, truth] = [join(dir, 'strong.ndjson'), join(dir, 'truth.json')];
    await ranking(
      'generate',
      '--seed',
      '9',
      '--events',
      '3000',
      '--strength-spread',
      '250',
      '--truth',
      truth,
      '--out',
      events,
    );
    const options = { seed: 9, events: 3000, strengthSpread: 250 };
    expect(await readFile(events, 'utf8')).toBe(`${[...generateEvents(options)].join('\n')}\n`);
    expect(JSON.parse(await readFile(truth, 'utf8'))).toEqual(trueStrengths(options));
    // Without a spread: the coin-flip file, and strengths all 0.
    await ranking('generate', '--seed', '9', '--events', '3000', '--truth', truth, '--out', events);
    expect(await readFile(events, 'utf8')).toBe(
      `${[...generateEvents({ seed: 9, events: 3000 })].join('\n')}\n`,
    );
    const flat = JSON.parse(await readFile(truth, 'utf8')) as Record<
      string,
      Record<string, number>
    >;
    expect(new Set(Object.values(flat).flatMap((l) => Object.values(l)))).toEqual(new Set([0]));
  });

  it('replay --skill: the same output but for a "skill" member per player, as the in-process fold with the estimate renders it, on both paths', async () => {
    const events = join(dir, 'skill.ndjson');
    const lines = [
      ...generateEvents({
        seed: 17,
        events: 4000,
        correctionShare: 0.03,
        annulmentShare: 0.005,
        strengthSpread: 200,
      }),
    ];
    await writeFile(events, `${lines.join('\n')}\n`);
    const replayed = async (...flags: string[]) => {
      const out = join(dir, `skill-${flags.join('')}.json`);
      await ranking('replay', '--events', events, '--out', out, ...flags);
      return readFile(out, 'utf8');
    };
    const plain = await replayed();
    const skilled = await replayed('--skill');
    expect(await replayed('--skill', '--single-thread')).toBe(skilled);
    const engine = new ReplayEngine(ladderRegistry(), { simulate: false, skill: true });
    for (const line of lines) engine.ingestLine(line);
    expect(skilled).toBe([...engine.render()].join(''));
    type Out = { ladders: Record<string, { players: Record<string, Record<string, unknown>> }> };
    const parsed = JSON.parse(skilled) as Out;
    let players = 0;
    for (const ladder of Object.values(parsed.ladders))
      for (const player of Object.values(ladder.players)) {
        expect(player.skill).toEqual({ mu: expect.any(Number), sigma: expect.any(Number) });
        delete player.skill;
        players += 1;
      }
    expect(players).toBeGreaterThan(100);
    expect(parsed).toEqual(JSON.parse(plain));
  });

  it('replay --ladders: a built-in ladder replaced with other params gives other standings, the same on both paths', async () => {
    const events = join(dir, 'params.ndjson');
    const lines = [...generateEvents({ seed: 13, events: 3000 })];
    await writeFile(events, `${lines.join('\n')}\n`);
    const entries = [
      { id: 'igame-gomoku', params: { k: [{ below: 1700, k: 64 }, { k: 8 }], weeklyQuota: 3 } },
      { id: 'qq-gomoku', params: { basePoints: 20 } },
    ];
    const laddersFile = join(dir, 'ladders.json');
    await writeFile(laddersFile, JSON.stringify(entries));
    const replayed = async (...flags: string[]) => {
      const out = join(dir, `params-${flags.length}.json`);
      await ranking('replay', '--events', events, '--out', out, '--simulate', ...flags);
      return readFile(out, 'utf8');
    };
    const builtIn = await replayed();
    const workers = await replayed('--ladders', laddersFile);
    const inline = await replayed('--ladders', laddersFile, '--single-thread');

    expect(inline).toBe(workers);
    const engine = new ReplayEngine(ladderRegistry(entries), { simulate: true });
    for (const line of lines) engine.ingestLine(line);
    expect(workers).toBe([...engine.render()].join(''));
    const [before, after] = [builtIn, workers].map(
      (text) => (JSON.parse(text) as { ladders: Record<string, unknown> }).ladders,
    );
    // The replaced ladders moved; the others did not.
    expect(after!['igame-gomoku']).not.toEqual(before!['igame-gomoku']);
    expect(after!['qq-gomoku']).not.toEqual(before!['qq-gomoku']);
    expect(after!['qq-xiangqi']).toEqual(before!['qq-xiangqi']);
  });

  it('replay --ladders: a bad file stops it with one line naming the ladder and the parameter', async () => {
    const events = join(dir, 'one-game.ndjson');
    await writeFile(events, `${[...generateEvents({ seed: 2, events: 10 })].join('\n')}\n`);
    const laddersFile = join(dir, 'bad-ladders.json');
    await writeFile(
      laddersFile,
      JSON.stringify([{ id: 'igame-gomoku', params: { k: [{ below: 2100, k: 32 }] } }]),
    );
    const out = join(dir, 'never.json');
    const stopped = await failure(
      ranking('replay', '--events', events, '--out', out, '--ladders', laddersFile),
    );
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toBe('');
    expect(jsonLines(stopped.stderr)).toMatchObject([
      {
        level: 'error',
        message: `--ladders ${laddersFile}: ladder "igame-gomoku" param "k": the last row must have no "below"`,
        command: 'replay',
        exitCode: 1,
      },
    ]);
    await expect(readFile(out, 'utf8')).rejects.toThrow('ENOENT');
  });

  it('--version prints the package version and the commit, and still the version where git is not there', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const { stdout: commit } = await run('git', ['rev-parse', '--short=12', 'HEAD']);
    for (const flag of ['--version', '-V'])
      expect((await ranking(flag)).stdout).toBe(`${version} (${commit.trim()})\n`);
    // No git on the PATH (as in the image, which has no .git either): the version alone, exit 0.
    const { stdout } = await run(process.execPath, ['bin/ranking.js', '--version'], {
      env: { ...process.env, PATH: '/nonexistent' },
    });
    expect(stdout).toBe(`${version}\n`);
  });

  it('refuses a bad flag with a clear message and a non-zero exit', async () => {
    const events = join(dir, 'one.ndjson');
    await writeFile(events, '\n');
    const until = await failure(
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
    );
    expect(until.code).toBe(1);
    expect(jsonLines(until.stderr)).toMatchObject([
      {
        level: 'error',
        context: 'ranking',
        message: '--until 2027-01-01T00:00:00: must be an RFC 3339 instant with an offset',
        command: 'replay',
        exitCode: 1,
      },
    ]);
    const missing = await failure(
      ranking('replay', '--events', join(dir, 'missing.ndjson'), '--out', join(dir, 'x.json')),
    );
    expect(missing.code).toBe(1);
    expect(jsonLines(missing.stderr)).toMatchObject([
      { level: 'error', message: expect.stringContaining('missing.ndjson') },
    ]);
    // Commander's own usage errors too.
    const usage = await failure(ranking('replay', '--events', events));
    expect(usage.code).not.toBe(0);
    expect(jsonLines(usage.stderr)).toMatchObject([
      { level: 'error', message: "required option '--out <file>' not specified" },
    ]);
  });

  it('stops with one line naming a badly configured variable', async () => {
    for (const [variable, value, message] of [
      ['DATABASE_URL', 'mysql://x', 'DATABASE_URL="mysql://x": must be a postgres:// URL'],
      [
        'LOG_LEVEL',
        'loud',
        'LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace',
      ],
    ] as const) {
      const stopped = await failure(
        run(process.execPath, ['bin/ranking.js', 'setup'], {
          env: { ...process.env, [variable]: value },
        }),
      );
      expect(stopped.code).toBe(1);
      expect(stopped.stdout).toBe('');
      expect(jsonLines(stopped.stderr)).toEqual([
        {
          time: expect.any(String),
          level: 'error',
          context: 'ranking',
          message,
          command: 'setup',
          exitCode: 1,
        },
      ]);
    }
  });

  it('off a terminal prints only JSON log lines (time, level, context, message, fields), on stderr', async () => {
    const out = join(dir, 'json.ndjson');
    const { stdout, stderr } = await ranking(
      'generate',
      '--seed',
      '3',
      '--events',
      '100',
      '--out',
      out,
    );
    expect(stdout).toBe('');
    const log = jsonLines(stderr);
    expect(log).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        level: 'info',
        context: 'generate',
        message: `generated 100 events (seed 3) -> ${out}`,
        events: 100,
        seed: 3,
        out,
      },
    ]);
    expect(Math.abs(Date.parse(log[0]!.time) - Date.now())).toBeLessThan(60_000);
    // LOG_LEVEL=warn leaves the info line out.
    const quiet = await run(
      process.execPath,
      ['bin/ranking.js', 'generate', '--seed', '3', '--events', '100', '--out', out],
      { env: { ...process.env, LOG_LEVEL: 'warn' } },
    );
    expect(quiet).toMatchObject({ stdout: '', stderr: '' });
  });

  it('at a terminal prints the plain lines a person reads, as before', async () => {
    const out = join(dir, 'tty.ndjson');
    expect(await atTerminal('generate', '--seed', '3', '--events', '100', '--out', out)).toEqual({
      code: 0,
      screen: `generated 100 events (seed 3) -> ${out}\n`,
    });
    expect(
      await atTerminal('replay', '--events', join(dir, 'missing.ndjson'), '--out', out),
    ).toEqual({
      code: 1,
      screen: expect.stringMatching(/^ranking: ENOENT: .*missing\.ndjson'\n$/),
    });
  });
});
