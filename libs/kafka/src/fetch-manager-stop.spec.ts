import { spawn } from 'node:child_process';

/**
 * kafkajs 2.2.4's fetch manager, driven into the state that spun the rating service (issue 41,
 * ADR 37): a fetcher throws a rebalance (a broker left the metadata) while another is still in
 * its fetch, and the runner stops in between. Unpatched, the manager then builds new fetchers
 * for a stopped runner, whose fetch answers `[]` at once: a loop of resolved promises that never
 * lets a timer, a socket or a signal in. It runs in a child process, since that loop would
 * freeze this one; the child prints one line per step and exits when the manager has stopped.
 */
const SCRIPT = String.raw`
const createFetchManager = require('kafkajs/src/consumer/fetchManager')
const logger = { namespace: () => logger, debug() {}, info() {}, warn() {}, error() {} }
let running = true
let nodeIds = [1, 2]
let releaseSlow
const slow = new Promise((resolve) => (releaseSlow = resolve))
let slowEntered
const slowStarted = new Promise((resolve) => (slowEntered = resolve))
let emptyAnswers = 0
// Runner.fetch's own guard: a stopped runner answers [] at once.
const fetch = async (nodeId) => {
  if (!running) {
    emptyAnswers++
    return []
  }
  if (nodeId === 2) {
    slowEntered()
    await slow
    return []
  }
  await new Promise((resolve) => setTimeout(resolve, 10))
  return []
}
const manager = createFetchManager({ logger, getNodeIds: () => nodeIds, fetch, handler: async () => {} })
const started = manager.start().then(() => console.log('manager returned'))
;(async () => {
  await slowStarted
  nodeIds = [1] // broker 2 left the metadata: fetcher 1 throws a rebalance on its next fetch
  await new Promise((resolve) => setTimeout(resolve, 200))
  running = false // Runner.stop(): running false, then the manager's stop
  const stopped = manager.stop().then(() => console.log('stop returned'))
  releaseSlow() // fetcher 2's fetch ends; the manager goes on from the rebalance
  await Promise.all([started, stopped])
  // A timer can fire: the event loop is free.
  await new Promise((resolve) => setTimeout(resolve, 50))
  console.log('event loop free after ' + emptyAnswers + ' empty answers')
})()
`;

interface ChildEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

/** Runs the script; SIGKILLs it if it has not exited within `ms` (a spinning loop ignores SIGTERM). */
function runChild(ms: number): Promise<ChildEnd> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

describe('kafkajs fetch manager (patched, ADR 37)', () => {
  it('when the runner stops during a fetcher rebalance, then no fetcher outlives it and the event loop stays free', async () => {
    const end = await runChild(20_000);
    // Unpatched, the child spins until the SIGKILL: { signal: 'SIGKILL', code: null }.
    expect(end).toMatchObject({ signal: null, code: 0 });
    expect(end.output).toMatch(/manager returned/);
    expect(end.output).toMatch(/stop returned/);
    expect(end.output).toMatch(/event loop free after \d+ empty answers/);
  }, 30_000);
});
