import {
  isBlankLine,
  type LadderEvent,
  parseEvent,
  type ParseOutcome,
  type Rejection,
} from '@ranking/contracts';

/** A line the parser refused, placed among its batch's non-blank lines. */
export interface RejectedLine {
  readonly at: number;
  readonly id: string | null;
  readonly rejection: Rejection;
}

/**
 * Consecutive lines of a file as the parse worker judged them, handed to the thread that folds.
 * The valid lines travel as their bytes, end to end in one buffer that is transferred, not
 * copied; the folding thread decodes and JSON.parses each. Measured against the alternatives
 * (CPU a line): decoding and parsing there cost 2.5 µs, the structured clone of the worker's
 * parsed objects 3.5 (and as much again in the worker to serialize them), the clone of the
 * lines' text 0.5 more than the decoding, plus 2 in the worker. The objects are the ones the
 * worker validated: JSON.parse of the same text gives the same value.
 */
export interface ParsedBatch {
  /** Lines read, blank ones included. */
  readonly lines: number;
  /** Bytes of the file read once the batch's last line was. */
  readonly bytesRead: number;
  /** The valid lines' bytes (UTF-8, checked), one after the other. */
  readonly events: Uint8Array<ArrayBuffer>;
  /** Where each valid line ends in `events`. */
  readonly ends: Uint32Array<ArrayBuffer>;
  /** The refused lines, in order. */
  readonly rejected: readonly RejectedLine[];
}

/** The buffers to transfer with a batch. */
export const transferables = (batch: ParsedBatch): ArrayBuffer[] => [
  batch.events.buffer,
  batch.ends.buffer,
];

/** Judges lines as `ReplayEngine.ingestLine` would, a batch at a time (the worker's side). */
export class BatchBuilder {
  private lines = 0;
  private judged = 0;
  private valid: Uint8Array[] = [];
  private validBytes = 0;
  private rejected: RejectedLine[] = [];

  /** Lines added since the last batch taken. */
  get size(): number {
    return this.lines;
  }

  add(line: Uint8Array): void {
    this.lines++;
    if (isBlankLine(line)) return;
    const outcome = parseEvent(line);
    if (outcome.ok) {
      // A view into the chunk read, which is not reused: copied once, into the batch.
      this.valid.push(line);
      this.validBytes += line.length;
    } else {
      this.rejected.push({ at: this.judged, id: outcome.id, rejection: outcome.rejection });
    }
    this.judged++;
  }

  /** The batch so far, and a fresh start. */
  take(bytesRead: number): ParsedBatch {
    const events = new Uint8Array(this.validBytes);
    const ends = new Uint32Array(this.valid.length);
    let at = 0;
    for (const [i, line] of this.valid.entries()) {
      events.set(line, at);
      ends[i] = at += line.length;
    }
    const batch: ParsedBatch = {
      lines: this.lines,
      bytesRead,
      events,
      ends,
      rejected: this.rejected,
    };
    this.lines = 0;
    this.judged = 0;
    this.valid = [];
    this.validBytes = 0;
    this.rejected = [];
    return batch;
  }
}

/** The batch's parse outcomes in line order, blank lines left out (the folding thread's side). */
export function outcomesOf(batch: ParsedBatch): ParseOutcome[] {
  const { ends, rejected } = batch;
  const bytes = Buffer.from(batch.events.buffer, batch.events.byteOffset, batch.events.length);
  const outcomes = new Array<ParseOutcome>(ends.length + rejected.length);
  let event = 0;
  let start = 0;
  let refused = 0;
  for (let i = 0; i < outcomes.length; i++) {
    const next = rejected[refused];
    if (next !== undefined && next.at === i) {
      outcomes[i] = { ok: false, rejection: next.rejection, id: next.id };
      refused++;
    } else {
      const end = ends[event++]!;
      const text = bytes.toString('utf8', start, end);
      outcomes[i] = { ok: true, event: JSON.parse(text) as LadderEvent };
      start = end;
    }
  }
  return outcomes;
}
