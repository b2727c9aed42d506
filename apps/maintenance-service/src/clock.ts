/** Where the service reads the time: the system clock in production, a set one in tests. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to (tests; two instances can share one). */
export class ManualClock implements Clock {
  private ms: number;

  constructor(start: string | number) {
    this.ms = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.ms;
  }

  set(at: string | number): void {
    this.ms = typeof at === 'number' ? at : Date.parse(at);
  }
}
