/** One JSON log line as the JsonLogger prints it, with the fields the call gave. */
export interface LogLine {
  readonly time: string;
  readonly level: string;
  readonly context?: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

/** A process's log output, every line a JSON log line; throws naming the first that is not one. */
export function jsonLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
      const entry = value as Partial<LogLine> | null;
      const strings = [entry?.time, entry?.level, entry?.message];
      if (strings.some((s) => typeof s !== 'string'))
        throw new Error(`not a JSON log line (time, level, message): ${line}`);
      return entry as LogLine;
    });
}
