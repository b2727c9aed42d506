import { type ChildProcess, spawn } from 'node:child_process';

/** A built service run as its own process, as in production, so a test can SIGKILL it. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  output = '';

  constructor(
    private readonly main: string,
    private readonly env: Record<string, string>,
  ) {}

  start(): void {
    const child = spawn(process.execPath, [this.main], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child = child;
  }

  /** Whether it was started and has not exited since. */
  alive(): boolean {
    const child = this.child;
    return child !== null && child.exitCode === null && child.signalCode === null;
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

  /** Stops it: SIGTERM for a clean shutdown, SIGKILL for a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.child = null;
  }
}
