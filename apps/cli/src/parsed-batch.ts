import {
  isBlankLine,
  type LadderEvent,
  parseEvent,
  type ParseOutcome,
  type Rejection,
  utf8Text,
} from '@ranking/contracts';

/** A line the parser refused, placed among its batch's non-blank lines. */
export interface RejectedLine {
  readonly at: number;
  readonly id: string | null;
  readonly rejection: Rejection;
}

/**
 * Consecutive lines of a file as the parse worker judged them, handed to the thread that folds.
 * The valid lines travel as their text: the folding thread needs them as objects, and a
 * JSON.parse of the text is cheaper there than the structured clone of the objects the worker
 * parsed (measured: 2.7 µs of CPU a line with the clone of the strings, against 3.5 for the
 * objects, plus 3.5 in the worker to serialize them; one big `[…]` text of the batch costs
 * 3.8, its decoding into one large string being dear). The objects are the ones the worker
 * validated: JSON.parse of the same text gives the same value.
 */
export interface ParsedBatch {
  /** Lines read, blank ones included. */
  readonly lines: number;
  /** Bytes of the file read once the batch's last line was. */
  readonly bytesRead: number;
  /** The valid lines' text, in order. */
  readonly events: readonly string[];
  /** The refused lines, in order. */
  readonly rejected: readonly RejectedLine[];
}

/** Judges lines as `ReplayEngine.ingestLine` would, a batch at a time (the worker's side). */
export class BatchBuilder {
  private lines = 0;
  private judged = 0;
  private events: string[] = [];
  private rejected: RejectedLine[] = [];

  /** Lines added since the last batch taken. */
  get size(): number {
    return this.lines;
  }

  add(line: Uint8Array): void {
    this.lines++;
    if (isBlankLine(line)) return;
    // Decoded once, to parse and to hand over; bytes that are not UTF-8 parseEvent refuses.
    const text = utf8Text(line);
    const outcome = parseEvent(text ?? line);
    if (outcome.ok) this.events.push(text!);
    else this.rejected.push({ at: this.judged, id: outcome.id, rejection: outcome.rejection });
    this.judged++;
  }

  /** The batch so far, and a fresh start. */
  take(bytesRead: number): ParsedBatch {
    const batch: ParsedBatch = {
      lines: this.lines,
      bytesRead,
      events: this.events,
      rejected: this.rejected,
    };
    this.lines = 0;
    this.judged = 0;
    this.events = [];
    this.rejected = [];
    return batch;
  }
}

/** The batch's parse outcomes in line order, blank lines left out (the folding thread's side). */
export function outcomesOf(batch: ParsedBatch): ParseOutcome[] {
  const { events, rejected } = batch;
  const outcomes = new Array<ParseOutcome>(events.length + rejected.length);
  let event = 0;
  let refused = 0;
  for (let i = 0; i < outcomes.length; i++) {
    const next = rejected[refused];
    if (next !== undefined && next.at === i) {
      outcomes[i] = { ok: false, rejection: next.rejection, id: next.id };
      refused++;
    } else {
      outcomes[i] = { ok: true, event: JSON.parse(events[event++]!) as LadderEvent };
    }
  }
  return outcomes;
}
