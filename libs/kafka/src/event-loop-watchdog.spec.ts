import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EVENT_LOOP_STALL_MESSAGE } from './event-loop-watchdog.js';

/** The watchdog's module, loaded by the child as TypeScript (Node 24 strips the types). */
const MODULE = fileURLToPath(new URL('./event-loop-watchdog.ts', import.meta.url));

interface ChildEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs an ES module in a child with the watchdog imported; SIGKILLs it after `ms`. */
function runChild(body: string, ms: number): Promise<ChildEnd> {
  const source = `import { startEventLoopWatchdog } from ${JSON.stringify(MODULE)};\n${body}`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', source], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('startEventLoopWatchdog', () => {
  it('when the event loop is held by a loop of resolved promises, then the process is killed with one fatal line', async () => {
    const end = await runChild(
      `startEventLoopWatchdog({ stallMs: 1000 });
       await new Promise((resolve) => setTimeout(resolve, 300));
       console.log('spinning');
       for (;;) await Promise.resolve([]);`,
      60_000,
    );
    expect(end.signal).toBe('SIGKILL');
    const lines = end.stdout.trim().split('\n');
    expect(lines[0]).toBe('spinning');
    expect(lines).toHaveLength(2);
    const fatal = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(fatal).toMatchObject({ level: 'fatal', context: 'EventLoopWatchdog' });
    expect(String(fatal.message)).toContain(EVENT_LOOP_STALL_MESSAGE);
    expect(fatal.silentMs).toBeGreaterThan(1000);
  }, 70_000);

  it('when the event loop turns, then the process lives on and exits by itself (the watchdog keeps nothing alive)', async () => {
    const end = await runChild(
      `startEventLoopWatchdog({ stallMs: 1000 });
       for (let i = 0; i < 30; i++) await new Promise((resolve) => setTimeout(resolve, 100));
       console.log('done');`,
      60_000,
    );
    expect(end).toEqual({ code: 0, signal: null, stdout: 'done\n', stderr: '' });
  }, 70_000);
});
