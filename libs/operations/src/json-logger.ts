import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** The configuration's LOG_LEVEL names, most severe first. */
export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const NEST_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const NAMES: readonly LogLevelName[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** The Nest levels printed at a LOG_LEVEL: that one and every more severe one. */
export function nestLogLevels(level: LogLevelName): LogLevel[] {
  return NEST_LEVELS.slice(0, NAMES.indexOf(level) + 1);
}

/** The name a Nest level is printed under (Nest says `log` and `verbose`). */
const PRINTED: Record<LogLevel, LogLevelName> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** The stream every line goes to: stdout for the services, stderr for the CLI (its results). */
export type JsonLogStream = 'stdout' | 'stderr';

/**
 * Nest's own JSON console logger, one object per line on one stream (stdout unless told):
 * `time` (ISO 8601), `level` (the LOG_LEVEL names), `context`, `message`, and the structured
 * fields a call passes after the message (`logger.warn('…', { ladder, partition, offset,
 * eventId })`) at the top level.
 */
export class JsonLogger extends ConsoleLogger {
  private readonly stream: JsonLogStream;

  constructor(level: LogLevelName, context?: string, stream: JsonLogStream = 'stdout') {
    const options = {
      json: true,
      colors: false,
      logLevels: nestLogLevels(level),
      flattenParams: true,
    };
    if (context === undefined) super(options);
    else super(context, options);
    this.stream = stream;
  }

  protected override stringifyJsonLogObject(logObject: Record<string, unknown>): string {
    const { timestamp, level, pid: _pid, ...rest } = logObject;
    return super.stringifyJsonLogObject({
      time: new Date(timestamp as number).toISOString(),
      level: PRINTED[level as LogLevel] ?? level,
      ...rest,
    });
  }

  // Collectors read one stream: errors go to the same one as the rest.
  protected override printAsJson(
    message: unknown,
    options: Parameters<ConsoleLogger['printAsJson']>[1],
  ): void {
    super.printAsJson(message, { ...options, writeStreamType: this.stream });
  }
}
