// CPU seconds of each thread of this process, from /proc (Linux; empty elsewhere): a bench
// tells which thread bounds it, where process.cpuUsage sums them all.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** Thread id -> user + system CPU seconds, for every thread alive now. */
export function threadCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return cpu;
  }
  for (const tid of tasks) {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

/**
 * Samples every thread's CPU until stopped (a thread that ends keeps its last sample), then
 * splits it into this (main) thread, the threads started meanwhile, and the others (the
 * garbage collector's and libuv's helpers).
 */
export function sampleThreadCpu(
  everyMs = 100,
): () => { main: number; started: number; others: number } {
  const before = threadCpu();
  const last = new Map(before);
  const sample = () => {
    for (const [tid, seconds] of threadCpu()) last.set(tid, seconds);
  };
  const timer = setInterval(sample, everyMs);
  return () => {
    clearInterval(timer);
    sample();
    const split = { main: 0, started: 0, others: 0 };
    for (const [tid, seconds] of last) {
      const used = seconds - (before.get(tid) ?? 0);
      if (tid === process.pid) split.main += used;
      else if (before.has(tid)) split.others += used;
      else split.started += used;
    }
    return split;
  };
}
