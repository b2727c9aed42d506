import type { ParseOutcome } from '@ranking/contracts';
import type { ReplayEngine } from '@ranking/rating';
import { ndjsonLines } from './ndjson-lines.js';
import { type ParsedLinesOptions, parsedLines } from './parsed-lines.js';

/** Reports how many bytes of the file have been folded. */
export type OnBytes = (bytes: number) => void;

/** What takes the parsed lines in file order: a replay engine, or several (`ranking whatif`). */
export interface ParsedSink {
  ingestParsed(parsed: ParseOutcome): unknown;
}

/**
 * Folds a file's lines into the engine in log order while a worker thread reads, splits, parses
 * and validates the next ones (two cores: what is left here is the fold, and rebuilding the
 * events the worker parsed from its tape, without parsing text again). Returns the number of lines, blank ones included.
 */
export async function replayFile(
  engine: ParsedSink,
  file: string,
  onBytes: OnBytes = () => undefined,
  options: ParsedLinesOptions = {},
): Promise<number> {
  let lines = 0;
  for await (const batch of parsedLines(file, options)) {
    for (const outcome of batch.outcomes()) engine.ingestParsed(outcome);
    lines += batch.lines;
    onBytes(batch.bytesRead);
  }
  return lines;
}

/** The same on this thread alone: the reference replayFile must equal, byte for byte. */
export async function replayFileInline(
  engine: ReplayEngine,
  file: string,
  onBytes: OnBytes = () => undefined,
): Promise<number> {
  let lines = 0;
  for await (const line of ndjsonLines(file, onBytes)) {
    engine.ingestLine(line);
    lines++;
  }
  return lines;
}
