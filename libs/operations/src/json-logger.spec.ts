import { Logger } from '@nestjs/common';
import { JsonLogger, nestLogLevels } from './json-logger.js';

describe('JsonLogger', () => {
  let lines: string[];
  const write = process.stdout.write.bind(process.stdout);
  beforeEach(() => {
    lines = [];
    process.stdout.write = (chunk: string | Uint8Array) => lines.push(String(chunk)) > 0;
  });
  afterEach(() => (process.stdout.write = write));

  it('prints one JSON object a line with time, level, context, message and the fields given', () => {
    new JsonLogger('info').warn('batch failed', { partition: 3, offset: '17' }, 'RatingConsumer');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'warn',
      context: 'RatingConsumer',
      message: 'batch failed',
      partition: 3,
      offset: '17',
    });
  });

  it('prints errors to stdout as well, with the configured names of the levels', () => {
    const logger = new JsonLogger('trace');
    logger.error('down', 'Ctx');
    logger.log('up', 'Ctx');
    logger.verbose('detail', 'Ctx');
    expect(lines.map((l) => (JSON.parse(l) as { level: string }).level)).toEqual([
      'error',
      'info',
      'trace',
    ]);
  });

  it('prints only the levels at LOG_LEVEL and above', () => {
    const logger = new JsonLogger('warn');
    logger.log('hidden', 'Ctx');
    logger.debug('hidden', 'Ctx');
    logger.warn('shown', 'Ctx');
    logger.fatal('shown', 'Ctx');
    expect(lines.map((l) => (JSON.parse(l) as { message: string }).message)).toEqual([
      'shown',
      'shown',
    ]);
    expect(nestLogLevels('info')).toEqual(['fatal', 'error', 'warn', 'log']);
    expect(nestLogLevels('fatal')).toEqual(['fatal']);
  });

  it('is what a Nest Logger of any context writes through once installed', () => {
    Logger.overrideLogger(new JsonLogger('info'));
    try {
      new Logger('Somewhere').log('hello', { ladder: 'qq-gomoku' });
    } finally {
      Logger.overrideLogger(false);
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({
      context: 'Somewhere',
      message: 'hello',
      ladder: 'qq-gomoku',
    });
  });
});
