import { Logger } from '@nestjs/common';
import { interactive } from './interactive.js';

/** The ids and counts a line is about (ladder, events, file paths…), as JSON fields. */
export type LogFields = Record<string, unknown>;

export interface CommandLogOptions {
  /** Where the plain line goes at a terminal: rebuild, setup and rebuild-counters use stdout. */
  readonly stream?: 'stdout' | 'stderr';
  /** What the plain line starts with (`[setup] `); in JSON the context says it. */
  readonly prefix?: string;
}

/**
 * A command's log and status lines. At a terminal, the plain line a person reads, as the CLI
 * has always printed it; otherwise a JSON log line through Nest's Logger (the JsonLogger that
 * ranking.ts installs at LOG_LEVEL), with the same text as its message and the fields given.
 */
export class CommandLog {
  private readonly logger: Logger;

  constructor(
    context: string,
    private readonly options: CommandLogOptions = {},
  ) {
    this.logger = new Logger(context);
  }

  info(line: string, fields: LogFields = {}): void {
    if (interactive()) this.print(line);
    else this.logger.log(line, fields);
  }

  warn(line: string, fields: LogFields = {}): void {
    if (interactive()) this.print(line);
    else this.logger.warn(line, fields);
  }

  private print(line: string): void {
    process[this.options.stream ?? 'stderr'].write(`${this.options.prefix ?? ''}${line}\n`);
  }
}
