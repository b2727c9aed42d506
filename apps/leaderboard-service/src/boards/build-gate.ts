/** Every build slot and queue place is taken: the request is answered 503 with Retry-After. */
export class BuildsBusyError extends Error {
  override readonly name = 'BuildsBusyError';
}

/**
 * At most `slots` expensive builds at once, at most `queue` more waiting for a slot, in order;
 * past that a build is refused at once (BuildsBusyError) rather than piling up memory and
 * CPU. `observe` is told the running and waiting counts after every change.
 */
export class BuildGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly slots: number,
    readonly queue: number,
    private readonly observe: (running: number, queued: number) => void = () => undefined,
  ) {}

  async run<T>(build: () => Promise<T>): Promise<T> {
    if (this.running < this.slots) this.running += 1;
    else if (this.waiting.length < this.queue) {
      // The slot is handed over by the build that ends: `running` stays as it is.
      const turn = new Promise<void>((resolve) => this.waiting.push(resolve));
      this.observe(this.running, this.waiting.length);
      await turn;
    } else
      throw new BuildsBusyError(
        `${this.slots} builds are running and ${this.queue} waiting; retry shortly`,
      );
    this.observe(this.running, this.waiting.length);
    try {
      return await build();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
      this.observe(this.running, this.waiting.length);
    }
  }
}
