import {
  isBlankLine,
  type LadderEvent,
  parseEvent,
  type ParseOutcome,
  type Rejection,
} from '@ranking/contracts';
import { type Tape, type TapeReader, TapeWriter, tapeBuffers } from './event-tape.js';

/** A line the parser refused, placed among its batch's non-blank lines. */
export interface RejectedLine {
  readonly at: number;
  readonly id: string | null;
  readonly rejection: Rejection;
}

/**
 * Consecutive lines of a file as the parse worker judged them, handed to the thread that folds.
 * Each line is parsed once, in the worker: the valid events travel as the values it parsed,
 * written to a tape (event-tape.ts) whose arrays are transferred, not copied, and rebuilt on the
 * folding thread without parsing any text (ADR 26). Measured against the alternatives (CPU a
 * line on the folding thread): JSON.parse of the line's bytes again there cost 2.5 µs, the
 * structured clone of the worker's objects 3.5 (and as much again in the worker).
 */
export interface ParsedBatch {
  /** Lines read, blank ones included. */
  readonly lines: number;
  /** Bytes of the file read once the batch's last line was. */
  readonly bytesRead: number;
  /** The valid events, in order. */
  readonly events: Tape;
  /** The refused lines, in order. */
  readonly rejected: readonly RejectedLine[];
}

/** The buffers to transfer with a batch. */
export const transferables = (batch: ParsedBatch): ArrayBuffer[] => tapeBuffers(batch.events);

/** Judges lines as `ReplayEngine.ingestLine` would, a batch at a time (the worker's side). */
export class BatchBuilder {
  private lines = 0;
  private judged = 0;
  private readonly tape = new TapeWriter();
  private rejected: RejectedLine[] = [];

  /** Lines added since the last batch taken. */
  get size(): number {
    return this.lines;
  }

  add(line: Uint8Array): void {
    this.lines++;
    if (isBlankLine(line)) return;
    const outcome = parseEvent(line);
    if (outcome.ok) this.tape.write(outcome.event);
    else this.rejected.push({ at: this.judged, id: outcome.id, rejection: outcome.rejection });
    this.judged++;
  }

  /** The batch so far, and a fresh start. */
  take(bytesRead: number): ParsedBatch {
    const batch: ParsedBatch = {
      lines: this.lines,
      bytesRead,
      events: this.tape.take(),
      rejected: this.rejected,
    };
    this.lines = 0;
    this.judged = 0;
    this.rejected = [];
    return batch;
  }
}

/**
 * A batch on the folding thread, with the reader of its worker's tapes: the strings and shapes
 * it adds are taken in as it arrives (batches of a worker arrive in order), its events are
 * rebuilt as they are read.
 */
export class ReceivedBatch {
  constructor(
    private readonly batch: ParsedBatch,
    private readonly reader: TapeReader,
  ) {
    reader.receive(batch.events);
  }

  get lines(): number {
    return this.batch.lines;
  }

  get bytesRead(): number {
    return this.batch.bytesRead;
  }

  /** The parse outcomes in line order, blank lines left out; read once, before the next batch. */
  *outcomes(): Generator<ParseOutcome> {
    const { rejected } = this.batch;
    const reader = this.reader;
    reader.start(this.batch.events);
    let refused = 0;
    for (let i = 0; ; i++) {
      const next = rejected[refused];
      if (next !== undefined && next.at === i) {
        yield { ok: false, rejection: next.rejection, id: next.id };
        refused++;
      } else if (reader.done) {
        return;
      } else {
        yield { ok: true, event: reader.value() as LadderEvent };
      }
    }
  }
}
