import { Worker } from 'node:worker_threads';
import type { LadderEvent } from '@ranking/contracts';
import type { PayloadParser } from '@ranking/persistence';
import { type Tape, TapeReader } from './event-tape.js';

/** The built worker, next to this file. */
export const PAYLOAD_PARSE_WORKER = new URL('./payload-parse-worker.js', import.meta.url);

/**
 * Batches sent ahead of the one being folded: enough that the worker always has the next one
 * (a batch of 48 kB parses in about the time one folds), few enough to hold little memory.
 */
const AHEAD = 4;

/**
 * A ladder's stored payloads parsed by a worker thread while this thread folds the batches
 * before: the rebuild's, the what-if's and the dry runs' read of the log. The worker
 * hands over each batch as a tape, which this thread rebuilds into the very values JSON.parse
 * gives, for a quarter of its cost (ADR 26). One worker serves every read, one after another.
 */
export class OffThreadPayloads implements PayloadParser {
  private worker: Worker | null = null;
  private readonly reader = new TapeReader();
  /** Batches sent and not answered yet, oldest first. */
  private readonly waiting: { resolve(tape: Tape): void; reject(error: Error): void }[] = [];
  private failure: Error | null = null;

  constructor(private readonly script: URL = PAYLOAD_PARSE_WORKER) {}

  async *events(texts: AsyncIterable<string>): AsyncGenerator<LadderEvent[]> {
    const batches = texts[Symbol.asyncIterator]();
    const sent: Promise<Tape>[] = [];
    let ended = false;
    try {
      for (;;) {
        while (!ended && sent.length < AHEAD) {
          const next = await batches.next();
          if (next.done === true) ended = true;
          else sent.push(this.parse(next.value));
        }
        const tape = sent.shift();
        if (tape === undefined) return;
        yield this.read(await tape);
      }
    } finally {
      if (!ended) await batches.return?.();
      // Answers still due are taken in (the tapes' dictionaries), not read.
      await Promise.allSettled(sent);
    }
  }

  /** Ends the worker (it does not keep the process alive meanwhile). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return;
    worker.removeAllListeners();
    await worker.terminate();
  }

  private parse(text: string): Promise<Tape> {
    if (this.failure) return Promise.reject(this.failure);
    const promise = new Promise<Tape>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.start().postMessage(text);
    return promise;
  }

  private read(tape: Tape): LadderEvent[] {
    const reader = this.reader;
    reader.start(tape);
    const events: LadderEvent[] = [];
    while (!reader.done) events.push(reader.value() as LadderEvent);
    return events;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, {
      // It holds a few batches only (the CLI's large young generation is meant for the fold).
      resourceLimits: { maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    worker.on('message', (tape: Tape) => {
      // Taken in as it arrives, in order: later tapes name the strings and shapes it adds.
      this.reader.receive(tape);
      this.waiting.shift()?.resolve(tape);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      this.worker = null;
      for (const w of this.waiting.splice(0)) w.reject(this.failure);
    };
    worker.on('error', fail);
    worker.on('exit', (code) =>
      fail(new Error(`the payload parse worker stopped (exit code ${code}) with batches due`)),
    );
    this.worker = worker;
    return worker;
  }
}

/** Runs `work` with a parser of its own, whose worker ends with it. */
export async function withOffThreadPayloads<T>(
  work: (parser: OffThreadPayloads) => Promise<T>,
): Promise<T> {
  const parser = new OffThreadPayloads();
  try {
    return await work(parser);
  } finally {
    await parser.close();
  }
}
