import { Worker } from 'node:worker_threads';

/**
 * The event loop stalled for this long ends the process (ADR 37). Nothing of ours holds the
 * loop for more than a few seconds (folds and refolds run in their own thread), so a minute
 * means something spins, as kafkajs's fetcher did: the process then answers neither HTTP nor
 * SIGTERM and only a kill ends it.
 */
export const EVENT_LOOP_STALL_MS = 60_000;

/** What the watchdog thread prints (one JSON line, as the services log) before the kill. */
export const EVENT_LOOP_STALL_MESSAGE = 'the event loop has not turned';

/**
 * The watchdog runs in a thread of its own, since a loop of resolved promises on the main
 * thread starves every timer there. The main thread stamps the time into shared memory on a
 * timer; the watchdog reads it, and when it is older than the stall limit it prints one line
 * and SIGKILLs the process (a signal handler would run on the stalled loop, so only SIGKILL
 * ends it), for the supervisor to restart. The exactly-once protocol makes such a kill safe:
 * the checkpoints are in the same transactions as the state.
 */
const WATCHDOG_THREAD = String.raw`
const { workerData } = require('node:worker_threads')
const { writeSync } = require('node:fs')
const { stamp, stallMs, checkMs, message } = workerData
const beat = new BigInt64Array(stamp)
setInterval(() => {
  const silentMs = Date.now() - Number(Atomics.load(beat, 0))
  if (silentMs <= stallMs) return
  const line = {
    time: new Date().toISOString(),
    level: 'fatal',
    context: 'EventLoopWatchdog',
    message: message + ' for ' + silentMs + ' ms (limit ' + stallMs + ' ms): killing the process for its supervisor to restart it',
    silentMs,
  }
  writeSync(1, JSON.stringify(line) + '\n')
  process.kill(process.pid, 'SIGKILL')
}, checkMs)
`;

export interface EventLoopWatchdogOptions {
  /** How long the event loop may stand still (default EVENT_LOOP_STALL_MS). */
  readonly stallMs?: number;
}

export interface EventLoopWatchdog {
  stop(): Promise<void>;
}

/** Starts a watchdog over this process's event loop; it keeps nothing alive by itself. */
export function startEventLoopWatchdog(options: EventLoopWatchdogOptions = {}): EventLoopWatchdog {
  const stallMs = options.stallMs ?? EVENT_LOOP_STALL_MS;
  const stamp = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const beat = new BigInt64Array(stamp);
  const touch = () => Atomics.store(beat, 0, BigInt(Date.now()));
  touch();
  const timer = setInterval(touch, Math.max(50, Math.floor(stallMs / 10)));
  timer.unref();
  const worker = new Worker(WATCHDOG_THREAD, {
    eval: true,
    // The thread's script is CommonJS whatever the process was started with (--input-type).
    execArgv: [],
    workerData: {
      stamp,
      stallMs,
      checkMs: Math.max(50, Math.floor(stallMs / 10)),
      message: EVENT_LOOP_STALL_MESSAGE,
    },
  });
  worker.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await worker.terminate();
    },
  };
}

let shared: { watchdog: EventLoopWatchdog; users: number } | null = null;

/**
 * The process's one watchdog, started by its first consumer and stopped with its last (the
 * services start theirs through CheckpointedConsumer).
 */
export function guardEventLoop(options: EventLoopWatchdogOptions = {}): EventLoopWatchdog {
  shared ??= { watchdog: startEventLoopWatchdog(options), users: 0 };
  shared.users++;
  let released = false;
  return {
    stop: async () => {
      if (released || shared === null) return;
      released = true;
      if (--shared.users > 0) return;
      const { watchdog } = shared;
      shared = null;
      await watchdog.stop();
    },
  };
}
