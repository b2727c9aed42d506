import type { LadderEvent } from '@ranking/contracts';
import { type Annulment, annulmentOf } from './annulment.js';

/**
 * A ladder's accepted events in log order (simulated closes and penalties included), kept so
 * that an annulment can re-fold the ladder from its start. Each event is kept as its JSON text,
 * a string of one byte a character: about a third of the parsed object's size. The
 * annulments are indexed as they come, so that finding them reads no text.
 */
export class LadderLog {
  private readonly texts: string[] = [];
  private readonly annulled: Annulment[] = [];

  /** A log resumed from its texts (a snapshot's). */
  static of(texts: readonly string[]): LadderLog {
    const log = new LadderLog();
    // JSON.stringify writes the type's ASCII as it is: only these lines can be annulments.
    for (const text of texts) {
      if (text.includes('"player.annulled"')) log.append(JSON.parse(text) as LadderEvent);
      else log.texts.push(text);
    }
    return log;
  }

  /** Events kept: the position the next one takes. */
  get length(): number {
    return this.texts.length;
  }

  /** The annulments in the log, where they stand. */
  get annulments(): readonly Annulment[] {
    return this.annulled;
  }

  append(event: LadderEvent): void {
    if (event.type === 'player.annulled') this.annulled.push(annulmentOf(event, this.texts.length));
    this.texts.push(JSON.stringify(event));
  }

  /** The events, parsed one at a time as they are read (the log is never parsed whole). */
  *events(): Generator<LadderEvent> {
    for (const text of this.texts) yield JSON.parse(text) as LadderEvent;
  }

  /** The texts, copied: what a snapshot keeps. */
  snapshot(): string[] {
    return [...this.texts];
  }
}
