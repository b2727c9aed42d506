import { Logger } from '@nestjs/common';
import { JsonLogger } from '@ranking/operations';
import { CommandLog } from './command-log.js';
import { reportFailure } from './command-failure.js';
import { progressBar, PROGRESS_LOG_MS } from './progress.js';

// The CLI's lines: plain at a terminal (stderr a TTY), JSON log lines otherwise, on stderr
// (stdout is kept for a command's result).
describe('the CLI at a terminal and off one', () => {
  const written = { stdout: [] as string[], stderr: [] as string[] };
  const original = {
    stdout: process.stdout.write.bind(process.stdout),
    stderr: process.stderr.write.bind(process.stderr),
    isTTY: Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'),
  };
  const atTerminal = (terminal: boolean) =>
    Object.defineProperty(process.stderr, 'isTTY', { value: terminal, configurable: true });
  const json = (stream: 'stdout' | 'stderr') =>
    written[stream].map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeEach(() => {
    written.stdout = [];
    written.stderr = [];
    process.stdout.write = (chunk: string | Uint8Array) => written.stdout.push(String(chunk)) > 0;
    process.stderr.write = (chunk: string | Uint8Array) => written.stderr.push(String(chunk)) > 0;
    Logger.overrideLogger(new JsonLogger('info', undefined, 'stderr'));
  });
  afterEach(() => {
    process.stdout.write = original.stdout;
    process.stderr.write = original.stderr;
    if (original.isTTY) Object.defineProperty(process.stderr, 'isTTY', original.isTTY);
    else delete (process.stderr as { isTTY?: boolean }).isTTY;
  });

  it('at a terminal, a command prints its plain line on its own stream, prefix and all', () => {
    atTerminal(true);
    new CommandLog('setup', { stream: 'stdout', prefix: '[setup] ' }).info('kafka topics present', {
      topicsCreated: [],
    });
    new CommandLog('rebuild').warn('MISMATCH', { ladder: 'qq-gomoku' });
    expect(written).toEqual({ stdout: ['[setup] kafka topics present\n'], stderr: ['MISMATCH\n'] });
  });

  it('off a terminal, each line is one JSON log line on stderr: time, level, context, message, fields', () => {
    atTerminal(false);
    new CommandLog('setup', { stream: 'stdout', prefix: '[setup] ' }).info('kafka topics present', {
      topicsCreated: ['t'],
    });
    new CommandLog('rebuild', { stream: 'stdout' }).warn('MISMATCH', {
      ladder: 'qq-gomoku',
      match: false,
    });
    expect(written.stdout).toEqual([]);
    expect(written.stderr.every((line) => line.endsWith('}\n'))).toBe(true);
    expect(json('stderr')).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        level: 'info',
        context: 'setup',
        message: 'kafka topics present',
        topicsCreated: ['t'],
      },
      {
        time: expect.any(String),
        level: 'warn',
        context: 'rebuild',
        message: 'MISMATCH',
        ladder: 'qq-gomoku',
        match: false,
      },
    ]);
  });

  it('a failure is `ranking: …` at a terminal and a JSON error line off one, whatever LOG_LEVEL', () => {
    Logger.overrideLogger(new JsonLogger('fatal', undefined, 'stderr'));
    atTerminal(true);
    reportFailure('--ladder x: no such ladder', { exitCode: 1 });
    expect(written.stderr).toEqual(['ranking: --ladder x: no such ladder\n']);
    written.stderr = [];
    atTerminal(false);
    reportFailure('--ladder x: no such ladder', { exitCode: 1 });
    expect(json('stderr')).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        context: 'ranking',
        message: '--ladder x: no such ladder',
        command: process.argv[2],
        exitCode: 1,
      },
    ]);
  });

  it('off a terminal, a long run logs its progress every PROGRESS_LOG_MS instead of drawing a bar', () => {
    atTerminal(false);
    let now = 0;
    const bar = progressBar(1000, 'events', 'rebuild', () => now);
    for (const [at, done] of [
      [1_000, 100],
      [PROGRESS_LOG_MS, 250],
      [PROGRESS_LOG_MS + 5_000, 500],
      [2 * PROGRESS_LOG_MS + 1, 900],
    ] as const) {
      now = at;
      bar.update(done);
    }
    bar.stop();
    expect(json('stderr')).toEqual([
      expect.objectContaining({
        level: 'info',
        context: 'rebuild',
        message: '25% (250/1000 events)',
        done: 250,
        total: 1000,
        unit: 'events',
        percent: 25,
      }),
      expect.objectContaining({ message: '90% (900/1000 events)', done: 900 }),
    ]);
    expect(written.stdout).toEqual([]);
  });
});
