import { type ChildProcess, spawn } from 'node:child_process';

/** How a stopped process ended. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly ms: number;
}

/** Any free port for every service's HTTP server, unless a test names one. */
const ANY_PORT = {
  HTTP_PORT: '0',
  MAINTENANCE_HTTP_PORT: '0',
  RATING_HTTP_PORT: '0',
  INTAKE_HTTP_PORT: '0',
};

/**
 * Tests kill services and start them again: a killed consumer's partitions move on after 10 s
 * without its heartbeats rather than the default 30 s.
 */
const QUICK_HANDOVER = { KAFKA_SESSION_TIMEOUT_MS: '10000' };

/**
 * A built service run as its own process, as in production, so a test can SIGKILL it. It
 * listens on a free port unless the test names one; `url()` says where.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  output = '';
  /** Its standard output alone, since the last start. */
  stdout = '';
  private listening: string | null = null;
  private pending = '';

  constructor(
    private readonly main: string,
    private readonly env: Record<string, string>,
  ) {}

  start(): void {
    const child = spawn(process.execPath, [this.main], {
      env: { ...process.env, ...ANY_PORT, ...QUICK_HANDOVER, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.listening = null;
    this.pending = '';
    this.logLines.length = 0;
    this.stdout = '';
    child.stdout?.on('data', (d: Buffer) => {
      const text = d.toString();
      this.output += text;
      this.stdout += text;
      this.readLines(text);
    });
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child = child;
  }

  /** Every JSON log line it printed since the last start, in order. */
  readonly logLines: Record<string, unknown>[] = [];

  private readLines(text: string): void {
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) {
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof entry !== 'object' || entry === null) continue;
      const record = entry as Record<string, unknown>;
      this.logLines.push(record);
      if (typeof record.url === 'string' && String(record.message).startsWith('listening on'))
        this.listening = record.url.replace(/\/$/, '');
    }
  }

  /** The service's base URL (no trailing slash), once it listens. */
  async url(timeoutMs = 60_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    while (this.listening === null) {
      if (!this.alive()) throw new Error(`the service ${this.status()}:\n${this.outputTail()}`);
      if (Date.now() > until)
        throw new Error(`the service did not listen in ${timeoutMs} ms:\n${this.outputTail()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.listening;
  }

  /** Whether it was started and has not exited since. */
  alive(): boolean {
    const child = this.child;
    return child !== null && child.exitCode === null && child.signalCode === null;
  }

  /** Its process id while it runs (to read its CPU time from /proc). */
  pid(): number | undefined {
    return this.alive() ? this.child?.pid : undefined;
  }

  /** How it stands, for a failure message: running, or how it ended. */
  status(): string {
    const child = this.child;
    if (!child) return 'not running (never started, or stopped by the test)';
    if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
    if (child.signalCode !== null) return `killed by ${child.signalCode}`;
    return `running (pid ${child.pid})`;
  }

  /** The last `chars` characters of what it printed. */
  outputTail(chars = 4000): string {
    return this.output.length <= chars ? this.output : `…${this.output.slice(-chars)}`;
  }

  /**
   * Stops it: SIGTERM for a clean shutdown, SIGKILL for a crash. Says how it ended and how long
   * that took (null when it was not running).
   */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<ProcessEnd | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return null;
    const started = Date.now();
    const exited = new Promise<ProcessEnd>((resolve) =>
      child.once('exit', (code, killedBy) =>
        resolve({ code, signal: killedBy, ms: Date.now() - started }),
      ),
    );
    child.kill(signal);
    const end = await exited;
    this.child = null;
    return end;
  }
}
