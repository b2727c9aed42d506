/**
 * How a consumed message ended: applied; rejected as invalid (with the contract's reason);
 * void (a game the rules void); duplicate (delivered or stored before, changed nothing);
 * unprocessable (set aside by the poison path).
 */
export type MessageOutcome = 'applied' | 'rejected' | 'void' | 'duplicate' | 'unprocessable';

/** How many messages of one committed transaction ended one way. */
export interface OutcomeCount {
  readonly outcome: MessageOutcome;
  /** Why, for rejections: the contract's rejection code. */
  readonly reason?: string;
  readonly count: number;
}

/** Counts by outcome and reason, for handlers that tally message by message. */
export class OutcomeTally {
  private readonly counts = new Map<string, OutcomeCount>();

  add(outcome: MessageOutcome, count = 1, reason?: string): void {
    if (count === 0) return;
    const key = `${outcome}\u0000${reason ?? ''}`;
    const before = this.counts.get(key)?.count ?? 0;
    this.counts.set(
      key,
      reason === undefined
        ? { outcome, count: before + count }
        : { outcome, reason, count: before + count },
    );
  }

  list(): OutcomeCount[] {
    return [...this.counts.values()];
  }
}
