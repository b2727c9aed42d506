import type { LadderEvent } from '@ranking/contracts';

/**
 * Turns batches of stored payloads (the event store's JSON texts, one a line, as COPY streams
 * them) into events, in order. Parsing is most of what reading a ladder's log costs its reader:
 * a parser may do it on another thread while the reader folds (the CLI's does, ADR 26).
 */
export interface PayloadParser {
  events(texts: AsyncIterable<string>): AsyncGenerator<LadderEvent[]>;
}

/** Each line of a batch of payloads, parsed. */
export function parsePayloadLines(text: string): LadderEvent[] {
  const batch: LadderEvent[] = [];
  for (let at = 0, end = text.indexOf('\n'); end >= 0; at = end + 1, end = text.indexOf('\n', at))
    batch.push(JSON.parse(text.slice(at, end)) as LadderEvent);
  return batch;
}

/** Parses on the reader's own thread, a batch as it is read. */
export const INLINE_PAYLOADS: PayloadParser = {
  async *events(texts) {
    for await (const text of texts) yield parsePayloadLines(text);
  },
};
