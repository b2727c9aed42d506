import type { OutboxMessage } from './message-log.js';

/** Messages the handoff holds at most; past it the oldest bundles are read back from the table. */
export const HANDOFF_MESSAGES = 50_000;

/**
 * The outbox bundles this process just wrote, by row id, so that its relay publishes them from
 * memory instead of reading megabytes of text back (the rows are still written, claimed, locked
 * and deleted as before: only where the messages come from changes). A row of a transaction
 * that rolled back is never claimed, so its bundle only waits here until pushed out by newer ones.
 */
export class OutboxHandoff {
  private readonly bundles = new Map<string, readonly OutboxMessage[]>();
  private held = 0;

  constructor(private readonly maxMessages = HANDOFF_MESSAGES) {}

  /** The bundle written as row `id`; the oldest go once more than `maxMessages` are held. */
  keep(id: string, messages: readonly OutboxMessage[]): void {
    this.bundles.set(id, messages);
    this.held += messages.length;
    for (const [oldest, bundle] of this.bundles) {
      if (this.held <= this.maxMessages) break;
      this.bundles.delete(oldest);
      this.held -= bundle.length;
    }
  }

  /** The bundles held now (a copy: what a claim may use whatever is kept meanwhile). */
  snapshot(): ReadonlyMap<string, readonly OutboxMessage[]> {
    return new Map(this.bundles);
  }

  /** A claimed row's bundle is no longer needed here (if its publish fails, it is read back). */
  forget(id: string): void {
    const bundle = this.bundles.get(id);
    if (bundle === undefined) return;
    this.bundles.delete(id);
    this.held -= bundle.length;
  }
}
