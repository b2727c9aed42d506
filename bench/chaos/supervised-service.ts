// A built service run as a supervisor would: its own process, its output appended to a log file,
// started again whenever it exits (after a SIGKILL of the soak's fault schedule, or by itself,
// which the soak counts and reports as an unexpected exit).
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

export class SupervisedService {
  private child: ChildProcess | null = null;
  private readonly log: WriteStream;
  private stopping = false;
  /** Exits the soak did not cause (a crash, a watchdog's exit). */
  unexpectedExits: string[] = [];
  private expectingExit = false;
  starts = 0;

  constructor(
    readonly name: string,
    private readonly main: string,
    private readonly env: Record<string, string>,
    logFile: string,
    private readonly nodeArgs: readonly string[] = [],
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.starts++;
    const child = spawn(process.execPath, [...this.nodeArgs, this.main], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(this.log, { end: false });
    child.stderr.pipe(this.log, { end: false });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.stopping) return;
      if (!this.expectingExit)
        this.unexpectedExits.push(`${new Date().toISOString()} code ${code} signal ${signal}`);
      this.expectingExit = false;
      // A supervisor's restart delay.
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, 2000).unref();
    });
    this.child = child;
  }

  /** SIGKILL, as a node failure would; the supervisor starts it again. */
  kill(): void {
    this.expectingExit = true;
    this.child?.kill('SIGKILL');
  }

  /** SIGTERM and wait (at most `ms`, then SIGKILL). */
  async stop(ms = 30_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    await exited;
    clearTimeout(timer);
  }

  close(): void {
    this.log.end();
  }
}
